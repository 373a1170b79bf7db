import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED } from "../../auth/delegation.js";
import {
  FIAT_ACCOUNT_COUNTRIES,
  FIAT_ACCOUNT_TYPES,
  fiatAccountInput,
  type FiatAccountCountry,
} from "../../fiat-accounts/rules.js";
import { actingOf, aliasedOperation, errorResponses, isoDateTime, jsonSchema } from "../http.js";

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
  const prefixes: [string, FiatAccountCountry | undefined][] = [
    ["/v1/domestic", undefined],
    ["/v1/ar", "AR"],
    ["/v1/co", "CO"],
    ["/v1/mx", "MX"],
  ];

  for (const [prefix, path] of prefixes) {
    server.post(`${prefix}/fiatAccounts`, {
      config,
      schema: {
        ...aliasedOperation("createDomesticFiatAccount", "Add a payout fiat account", path),
        tags,
        querystring: jsonSchema(countryQuery, "input"),
        body: jsonSchema(fiatAccountInput, "input"),
        response: { 200: jsonSchema(z.object({ fiatAccountId: z.uuid() })), ...errorResponses(400, 401, 403) },
      },
      handler: async (request) => ({
        fiatAccountId: (
          await app.fiatAccounts.create(actingOf(request), { path, query: request.query, body: request.body })
        ).fiatAccountId,
      }),
    });

    server.get(`${prefix}/fiatAccounts`, {
      config,
      schema: {
        ...aliasedOperation("listDomesticFiatAccounts", "List payout fiat accounts", path),
        tags,
        querystring: jsonSchema(countryQuery, "input"),
        response: { 200: jsonSchema(z.array(fiatAccount)), ...errorResponses(400, 401, 403) },
      },
      handler: (request) => app.fiatAccounts.list(actingOf(request), { path, query: request.query }),
    });

    server.delete(`${prefix}/fiatAccounts/:fiatAccountId`, {
      config,
      schema: {
        ...aliasedOperation("deleteDomesticFiatAccount", "Delete a payout fiat account", path),
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
