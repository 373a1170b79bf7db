import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { FIAT_SYMBOLS, NETWORKS, PAYMENT_METHOD_IDS } from "../../reference-data/catalog.js";
import type { App } from "../../app.js";
import {
  listSupportedCountries,
  listSupportedCryptocurrencies,
  listSupportedFiatCurrencies,
  listSupportedPaymentMethods,
} from "../../operations/reference-data.js";
import { jsonSchema } from "../http.js";
import { operationRoute } from "../operation-route.js";

const fiatSymbol = z.enum(FIAT_SYMBOLS);
const countries = z.object({
  countries: z.array(
    z.object({
      countryCode: z.string(),
      name: z.string(),
      emoji: z.string(),
      supportedCurrencies: z.array(fiatSymbol),
      support: z.object({ buy: z.boolean(), sell: z.boolean() }),
    }),
  ),
});
const cryptocurrencies = z.object({
  cryptocurrencies: z.array(
    z.object({
      assetSymbol: z.string(),
      assetNetwork: z.enum(NETWORKS),
      assetDecimals: z.number().int(),
      assetContractAddress: z.string().nullable().describe("Set on EVM networks."),
      assetForeignAssetId: z.string().nullable().describe("Set on AssetHub."),
    }),
  ),
});
const fiatCurrencies = z.object({
  currencies: z.array(z.object({ symbol: fiatSymbol, name: z.string(), decimals: z.number().int() })),
});
const paymentMethods = z.object({
  paymentMethods: z.array(
    z.object({
      id: z.enum(PAYMENT_METHOD_IDS),
      name: z.string(),
      supportedFiats: z.array(fiatSymbol),
      limits: z
        .object({ min: z.number().int(), max: z.number().int() })
        .describe("In whole units of the `fiat` filtered by, else of the first supported fiat."),
    }),
  ),
});

/** Public reference data (CONTRACT.md, Ramp domain): anyone may read it; a presented credential must still be valid. */
export function referenceDataRoutes(server: FastifyInstance, app: App) {
  const tags = ["Reference data"];
  operationRoute(server, app, listSupportedCountries, {
    method: "GET",
    url: "/v1/supported-countries",
    tags,
    response: jsonSchema(countries),
    errors: [400, 401, 403],
    cacheable: true,
  });
  operationRoute(server, app, listSupportedCryptocurrencies, {
    method: "GET",
    url: "/v1/supported-cryptocurrencies",
    tags,
    response: jsonSchema(cryptocurrencies),
    errors: [400, 401, 403],
    cacheable: true,
  });
  operationRoute(server, app, listSupportedFiatCurrencies, {
    method: "GET",
    url: "/v1/supported-fiat-currencies",
    tags,
    response: jsonSchema(fiatCurrencies),
    errors: [401, 403],
    cacheable: true,
  });
  operationRoute(server, app, listSupportedPaymentMethods, {
    method: "GET",
    url: "/v1/supported-payment-methods",
    tags,
    response: jsonSchema(paymentMethods),
    errors: [400, 401, 403],
    cacheable: true,
  });
}
