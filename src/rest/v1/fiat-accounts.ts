import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED } from "../../auth/delegation.js";
import { FIAT_ACCOUNT_COUNTRIES, FIAT_ACCOUNT_TYPES, fiatAccountInput } from "../../fiat-accounts/rules.js";
import { actingOf, aliasedOperation, errorResponses, isoDateTime, jsonSchema, pathCountry } from "../http.js";
import { requestCountry } from "../../reference-data/domestic.js";

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

/**
 * Payout bank accounts (CONTRACT.md, KYC/KYB and fiat accounts) under `/v1/domestic`, and under the
 * country aliases `/v1/ar`, `/v1/co`, `/v1/mx`, where the path names the country (a different `country`
 * in the query or body is a conflict, 400). The selector works (DELEGATED); creating and deleting are
 * checked against the account's corridor.
 */
export function fiatAccountRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["PROVIDER_ACCOUNTS"] as const, delegation: DELEGATED };
  const tags = ["Fiat accounts"];
  // Each operation is served under /v1/domestic and under the country aliases, whose path names the country.
  for (const url of [
    "/v1/domestic/fiatAccounts",
    "/v1/ar/fiatAccounts",
    "/v1/co/fiatAccounts",
    "/v1/mx/fiatAccounts",
  ]) {
    server.post(url, {
      config,
      schema: {
        ...aliasedOperation("createDomesticFiatAccount", "Add a payout fiat account", url),
        tags,
        querystring: jsonSchema(countryQuery, "input"),
        body: jsonSchema(fiatAccountInput, "input"),
        response: { 200: jsonSchema(z.object({ fiatAccountId: z.uuid() })), ...errorResponses(400, 401, 403) },
      },
      handler: async (request) => ({
        fiatAccountId: (
          await app.fiatAccounts.create(
            actingOf(request),
            requestCountry({ path: pathCountry(url), query: request.query, body: request.body }),
            request.body,
          )
        ).fiatAccountId,
      }),
    });
  }

  for (const url of [
    "/v1/domestic/fiatAccounts",
    "/v1/ar/fiatAccounts",
    "/v1/co/fiatAccounts",
    "/v1/mx/fiatAccounts",
  ]) {
    server.get(url, {
      config,
      schema: {
        ...aliasedOperation("listDomesticFiatAccounts", "List payout fiat accounts", url),
        tags,
        querystring: jsonSchema(countryQuery, "input"),
        response: { 200: jsonSchema(z.array(fiatAccount)), ...errorResponses(400, 401, 403) },
      },
      handler: (request) =>
        app.fiatAccounts.list(actingOf(request), requestCountry({ path: pathCountry(url), query: request.query })),
    });
  }

  for (const url of [
    "/v1/domestic/fiatAccounts/:fiatAccountId",
    "/v1/ar/fiatAccounts/:fiatAccountId",
    "/v1/co/fiatAccounts/:fiatAccountId",
    "/v1/mx/fiatAccounts/:fiatAccountId",
  ]) {
    server.delete(url, {
      config,
      schema: {
        ...aliasedOperation("deleteDomesticFiatAccount", "Delete a payout fiat account", url),
        tags,
        params: jsonSchema(z.object({ fiatAccountId: z.string() }), "input"),
        response: { 204: { type: "null" }, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        await app.fiatAccounts.delete(actingOf(request), (request.params as { fiatAccountId: string }).fiatAccountId);
        return reply.code(204).send();
      },
    });
  }
}
