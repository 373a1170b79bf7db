import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { FIAT_SYMBOLS, NETWORKS, PAYMENT_METHOD_IDS } from "../../reference-data/catalog.js";
import {
  countriesQuery,
  cryptocurrenciesQuery,
  paymentMethodsQuery,
  supportedCountries,
  supportedCryptocurrencies,
  supportedFiatCurrencies,
  supportedPaymentMethods,
} from "../../reference-data/service.js";
import { cacheable, errorResponses, jsonSchema } from "../http.js";
import { NO_DELEGATION } from "../../auth/delegation.js";

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
export function referenceDataRoutes(server: FastifyInstance) {
  const config = { capabilities: ["REFERENCE_DATA"] as const, delegation: NO_DELEGATION };
  const tags = ["Reference data"];

  server.get("/v1/supported-countries", {
    config,
    schema: {
      operationId: "listSupportedCountries",
      summary: "List supported countries",
      tags,
      querystring: jsonSchema(countriesQuery, "input"),
      response: { 200: jsonSchema(countries), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => cacheable(reply, { countries: supportedCountries(request.query) }),
  });

  server.get("/v1/supported-cryptocurrencies", {
    config,
    schema: {
      operationId: "listSupportedCryptocurrencies",
      summary: "List supported cryptocurrencies",
      tags,
      querystring: jsonSchema(cryptocurrenciesQuery, "input"),
      response: { 200: jsonSchema(cryptocurrencies), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => cacheable(reply, { cryptocurrencies: supportedCryptocurrencies(request.query) }),
  });

  server.get("/v1/supported-fiat-currencies", {
    config,
    schema: {
      operationId: "listSupportedFiatCurrencies",
      summary: "List supported fiat currencies",
      tags,
      response: { 200: jsonSchema(fiatCurrencies), ...errorResponses(401, 403) },
    },
    handler: async (_request, reply) => cacheable(reply, { currencies: supportedFiatCurrencies() }),
  });

  server.get("/v1/supported-payment-methods", {
    config,
    schema: {
      operationId: "listSupportedPaymentMethods",
      summary: "List supported payment methods",
      tags,
      querystring: jsonSchema(paymentMethodsQuery, "input"),
      response: { 200: jsonSchema(paymentMethods), ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => cacheable(reply, { paymentMethods: supportedPaymentMethods(request.query) }),
  });
}
