import type { FastifyInstance } from "fastify";
import type { App } from "../../app.js";
import {
  listSupportedCountries,
  listSupportedCryptocurrencies,
  listSupportedFiatCurrencies,
  listSupportedPaymentMethods,
} from "../../operations/reference-data.js";
import { operationRoute } from "../operation-route.js";

/** Public reference data (CONTRACT.md, Ramp domain): anyone may read it; a presented credential must still be valid. */
export function referenceDataRoutes(server: FastifyInstance, app: App) {
  const tags = ["Reference data"];
  operationRoute(server, app, listSupportedCountries, {
    method: "GET",
    url: "/v1/supported-countries",
    tags,
    errors: [400, 401, 403],
    cacheable: true,
  });
  operationRoute(server, app, listSupportedCryptocurrencies, {
    method: "GET",
    url: "/v1/supported-cryptocurrencies",
    tags,
    errors: [400, 401, 403],
    cacheable: true,
  });
  operationRoute(server, app, listSupportedFiatCurrencies, {
    method: "GET",
    url: "/v1/supported-fiat-currencies",
    tags,
    errors: [401, 403],
    cacheable: true,
  });
  operationRoute(server, app, listSupportedPaymentMethods, {
    method: "GET",
    url: "/v1/supported-payment-methods",
    tags,
    errors: [400, 401, 403],
    cacheable: true,
  });
}
