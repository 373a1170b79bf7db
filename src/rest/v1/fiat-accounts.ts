import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { FIAT_ACCOUNT_COUNTRIES } from "../../fiat-accounts/rail-rules.js";
import { fiatAccountInput } from "../../fiat-accounts/rules.js";
import {
  ALIASED_FIAT_ACCOUNT_OPERATIONS,
  createDomesticFiatAccount,
  deleteDomesticFiatAccount,
  listDomesticFiatAccounts,
} from "../../operations/fiat-accounts.js";
import { fiatAccountView, listFiatAccountsInput, type FiatAccountView } from "../../fiat-accounts/types.js";
import { jsonSchema, withRequestCountry } from "../http.js";
import { operationRoute } from "../operation-route.js";

const countryQuery = z.object({ country: z.enum(FIAT_ACCOUNT_COUNTRIES).optional() });
const listQuery = listFiatAccountsInput.extend(countryQuery.shape);

/**
 * Payout bank accounts (CONTRACT.md, KYC/KYB and fiat accounts) under `/v1/domestic`, and under the
 * country aliases `/v1/ar`, `/v1/co`, `/v1/mx`, where the path names the country (a different `country`
 * in the query or body is a conflict, 400). The selector works (DELEGATED); creating and deleting are
 * checked against the account's corridor.
 */
export function fiatAccountRoutes(server: FastifyInstance, app: App) {
  const tags = ["Fiat accounts"];
  const { AR, CO, MX } = ALIASED_FIAT_ACCOUNT_OPERATIONS;

  // The country comes from the alias path, the query or the body (a different one is a conflict, 400).
  const create = (url: string) => ({
    method: "POST" as const,
    url,
    tags,
    response: jsonSchema(z.object({ fiatAccountId: z.uuid() })),
    errors: [400, 401, 403],
    input: withRequestCountry(url, "body"),
    documented: { querystring: jsonSchema(countryQuery, "input"), body: jsonSchema(fiatAccountInput, "input") },
    reply: ({ fiatAccountId }: { fiatAccountId: string }) => ({ fiatAccountId }),
  });
  operationRoute(server, app, createDomesticFiatAccount, create("/v1/domestic/fiatAccounts"));
  operationRoute(server, app, AR.create, create("/v1/ar/fiatAccounts"));
  operationRoute(server, app, CO.create, create("/v1/co/fiatAccounts"));
  operationRoute(server, app, MX.create, create("/v1/mx/fiatAccounts"));

  const list = (url: string) => ({
    method: "GET" as const,
    url,
    tags,
    response: jsonSchema(z.array(fiatAccountView)),
    errors: [400, 401, 403],
    input: withRequestCountry(url, "query"),
    documented: { querystring: jsonSchema(listQuery, "input") },
    // The reference answers a bare array: the page alone (one shorter than `limit` is the last).
    reply: ({ fiatAccounts }: { fiatAccounts: FiatAccountView[] }) => fiatAccounts,
  });
  operationRoute(server, app, listDomesticFiatAccounts, list("/v1/domestic/fiatAccounts"));
  operationRoute(server, app, AR.list, list("/v1/ar/fiatAccounts"));
  operationRoute(server, app, CO.list, list("/v1/co/fiatAccounts"));
  operationRoute(server, app, MX.list, list("/v1/mx/fiatAccounts"));

  const remove = { method: "DELETE" as const, tags, status: 204, response: null, errors: [400, 401, 403, 404] };
  operationRoute(server, app, deleteDomesticFiatAccount, {
    ...remove,
    url: "/v1/domestic/fiatAccounts/:fiatAccountId",
  });
  operationRoute(server, app, AR.delete, { ...remove, url: "/v1/ar/fiatAccounts/:fiatAccountId" });
  operationRoute(server, app, CO.delete, { ...remove, url: "/v1/co/fiatAccounts/:fiatAccountId" });
  operationRoute(server, app, MX.delete, { ...remove, url: "/v1/mx/fiatAccounts/:fiatAccountId" });
}
