import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATION_RULES } from "../../auth/delegation.js";
import { FIAT_ACCOUNT_COUNTRIES, FIAT_ACCOUNT_TYPES, fiatAccountInput } from "../../fiat-accounts/rules.js";
import {
  ALIASED_FIAT_ACCOUNT_OPERATIONS,
  createDomesticFiatAccount,
  deleteDomesticFiatAccount,
  listDomesticFiatAccounts,
} from "../../operations/fiat-accounts.js";
import { perform } from "../../operations/operation.js";
import { requestCountry } from "../../reference-data/domestic.js";
import { actingOf, aliasedOperation, errorResponses, isoDateTime, jsonSchema, pathCountry } from "../http.js";
import { operationRoute } from "../operation-route.js";

const fiatAccount = z.object({
  fiatAccountId: z.uuid(),
  customerId: z.uuid(),
  country: z.enum(FIAT_ACCOUNT_COUNTRIES),
  type: z.enum(FIAT_ACCOUNT_TYPES),
  accountNumber: z.string().describe("Masked: only the last four characters are shown."),
  accountName: z.string(),
  accountType: z.string().nullable(),
  routingNumber: z.string().nullable(),
  accountBankCode: z.string().nullable(),
  createdAt: isoDateTime,
});
const countryQuery = z.object({ country: z.string().optional() });

const isObject = (value: unknown): value is object =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Payout bank accounts (CONTRACT.md, KYC/KYB and fiat accounts) under `/v1/domestic`, and under the
 * country aliases `/v1/ar`, `/v1/co`, `/v1/mx`, where the path names the country (a different `country`
 * in the query or body is a conflict, 400). The selector works (DELEGATED); creating and deleting are
 * checked against the account's corridor.
 */
export function fiatAccountRoutes(server: FastifyInstance, app: App) {
  const tags = ["Fiat accounts"];
  const { AR, CO, MX } = ALIASED_FIAT_ACCOUNT_OPERATIONS;

  // Creating reads the country from the query too, which operationRoute does not read for a body: the route
  // decides the country (path, query, body) and performs the operation with it.
  const { access } = createDomesticFiatAccount;
  for (const url of [
    "/v1/domestic/fiatAccounts",
    "/v1/ar/fiatAccounts",
    "/v1/co/fiatAccounts",
    "/v1/mx/fiatAccounts",
  ]) {
    server.post(url, {
      config: { capabilities: access.requires, delegation: DELEGATION_RULES[access.delegation] },
      schema: {
        ...aliasedOperation(createDomesticFiatAccount.name, createDomesticFiatAccount.summary, url),
        tags,
        querystring: jsonSchema(countryQuery, "input"),
        body: jsonSchema(fiatAccountInput, "input"),
        response: { 200: jsonSchema(z.object({ fiatAccountId: z.uuid() })), ...errorResponses(400, 401, 403) },
      },
      handler: async (request) => {
        const acting = actingOf(request);
        const { body } = request;
        const country = requestCountry({ path: pathCountry(url), query: request.query, body });
        // Anything but an object goes to validation as it is, to be refused there.
        const input = isObject(body) ? { ...body, country } : body;
        return { fiatAccountId: (await perform(createDomesticFiatAccount, app, acting, input)).fiatAccountId };
      },
    });
  }

  const list = { method: "GET" as const, tags, response: jsonSchema(z.array(fiatAccount)), errors: [400, 401, 403] };
  operationRoute(server, app, listDomesticFiatAccounts, { ...list, url: "/v1/domestic/fiatAccounts" });
  operationRoute(server, app, AR.list, { ...list, url: "/v1/ar/fiatAccounts" });
  operationRoute(server, app, CO.list, { ...list, url: "/v1/co/fiatAccounts" });
  operationRoute(server, app, MX.list, { ...list, url: "/v1/mx/fiatAccounts" });

  const remove = { method: "DELETE" as const, tags, status: 204, response: null, errors: [400, 401, 403, 404] };
  operationRoute(server, app, deleteDomesticFiatAccount, {
    ...remove,
    url: "/v1/domestic/fiatAccounts/:fiatAccountId",
  });
  operationRoute(server, app, AR.delete, { ...remove, url: "/v1/ar/fiatAccounts/:fiatAccountId" });
  operationRoute(server, app, CO.delete, { ...remove, url: "/v1/co/fiatAccounts/:fiatAccountId" });
  operationRoute(server, app, MX.delete, { ...remove, url: "/v1/mx/fiatAccounts/:fiatAccountId" });
}
