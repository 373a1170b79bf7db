import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED, SELECTOR_ONLY } from "../../auth/delegation.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../../reference-data/domestic.js";
import { actingOf, aliasedOperation, errorResponses, isoDateTime, jsonSchema } from "../http.js";
import { createSubaccountInput, newKycInput } from "../../kyc/brazil.js";
import {
  customerInput,
  customerTypeInput,
  kybInformation,
  kycInformation,
  sendSubmissionInput,
} from "../../kyc/domestic.js";

const IMPORT_TOKEN_BODY_LIMIT = 16 * 1024;
const success = z.object({ success: z.boolean() });
const link = z.object({ submissionId: z.uuid(), verification_url: z.url() });
const domesticStatus = z.enum([
  "CONSULTED",
  "LINK_OPENED",
  "USER_COMPLETED",
  "VERIFYING",
  "FAILED",
  "SUCCESS",
  "UPDATE_REQUIRED",
]);
const countryQuery = z.object({ country: z.string().optional(), type: z.enum(["INDIVIDUAL", "BUSINESS"]).optional() });

/** The domestic operations' operationIds (the reference's) and summaries, by path segment. */
const DOMESTIC_OPERATIONS = {
  createIndividualCustomer: ["createDomesticIndividualCustomer", "Create the individual provider customer"],
  createBusinessCustomer: ["createDomesticBusinessCustomer", "Create the business provider customer"],
  submitKycInformation: ["submitDomesticKycInformation", "Submit an individual's KYC information"],
  sendKycSubmission: ["sendDomesticKycSubmission", "Send a KYC submission for review"],
  submitKybInformation: ["submitDomesticKybInformation", "Submit a business's KYB information"],
  sendKybSubmission: ["sendDomesticKybSubmission", "Send a KYB submission for review"],
  getKycRedirectLink: ["getDomesticKycRedirectLink", "Get a link to the provider's hosted KYC"],
  getKybRedirectLink: ["getDomesticKybRedirectLink", "Get a link to the provider's hosted KYB"],
  kycRedirectOpened: ["notifyDomesticKycRedirectOpened", "Report that the hosted KYC or KYB was opened"],
  kycRedirectFinished: ["notifyDomesticKycRedirectFinished", "Report that the hosted KYC or KYB was finished"],
  retryKyc: ["retryDomesticKyc", "Retry a failed KYC or KYB"],
  getKycStatus: ["getDomesticKycStatus", "Get the KYC or KYB status"],
  alfredpayStatus: ["getDomesticStatus", "Get the provider customer's status"],
} as const satisfies Record<string, readonly [string, string]>;

/** What each domestic change takes: the schemas its service validates with. */
const DOMESTIC_BODIES = {
  createIndividualCustomer: customerInput,
  createBusinessCustomer: customerInput,
  submitKycInformation: kycInformation,
  sendKycSubmission: sendSubmissionInput,
  submitKybInformation: kybInformation,
  sendKybSubmission: sendSubmissionInput,
  kycRedirectOpened: customerTypeInput,
  kycRedirectFinished: customerTypeInput,
  retryKyc: customerTypeInput,
} as const;

/**
 * Customers and KYC/KYB of the subject (CONTRACT.md, KYC/KYB and fiat accounts): the reference's
 * `/v1/domestic/*` operations (also under `/v1/ar`, `/v1/co`, `/v1/mx`, where the path names the country)
 * and `/v1/brl/*` (also `/v1/brla/*`). A secret key or a session; the selector works (DELEGATED), and
 * changes are checked against the corridor and customer type in the service.
 */
export function customerRoutes(server: FastifyInstance, app: App) {
  const config = { capabilities: ["PROVIDER_ACCOUNTS"] as const, delegation: DELEGATED };
  const domestic = app.domesticOnboarding;
  const sources = (request: FastifyRequest, path: DomesticCountry | undefined) => ({
    path,
    query: request.query,
    body: request.body,
  });

  const prefixes: [string, DomesticCountry | undefined][] = [
    ["/v1/domestic", undefined],
    ["/v1/ar", "AR"],
    ["/v1/co", "CO"],
    ["/v1/mx", "MX"],
  ];
  for (const [prefix, path] of prefixes) {
    const tags = ["Customers and KYC (AR, CO, MX, US)"];
    const post = <T>(
      operation: keyof typeof DOMESTIC_BODIES,
      response: z.ZodType,
      handler: (request: FastifyRequest) => Promise<T>,
      codes: number[] = [400, 401, 403, 404],
    ) =>
      server.post(`${prefix}/${operation}`, {
        config,
        schema: {
          ...aliasedOperation(DOMESTIC_OPERATIONS[operation][0], DOMESTIC_OPERATIONS[operation][1], path),
          tags,
          body: jsonSchema(DOMESTIC_BODIES[operation], "input"),
          response: { 200: jsonSchema(response), ...errorResponses(...codes) },
        },
        handler,
      });
    const get = <T>(
      operation: keyof typeof DOMESTIC_OPERATIONS,
      response: z.ZodType,
      handler: (request: FastifyRequest) => Promise<T>,
    ) =>
      server.get(`${prefix}/${operation}`, {
        config,
        schema: {
          ...aliasedOperation(DOMESTIC_OPERATIONS[operation][0], DOMESTIC_OPERATIONS[operation][1], path),
          tags,
          querystring: jsonSchema(countryQuery, "input"),
          response: { 200: jsonSchema(response), ...errorResponses(400, 401, 403, 404) },
        },
        handler,
      });

    post(
      "createIndividualCustomer",
      z.object({ createdAt: isoDateTime }),
      async (request) => await domestic.createCustomer(actingOf(request), "individual", sources(request, path)),
      [400, 401, 403],
    );
    post(
      "createBusinessCustomer",
      z.object({ createdAt: isoDateTime }),
      async (request) => await domestic.createCustomer(actingOf(request), "business", sources(request, path)),
      [400, 401, 403],
    );
    post("submitKycInformation", z.object({ submissionId: z.uuid() }), (request) =>
      domestic.submitKycInformation(actingOf(request), sources(request, path)),
    );
    post("sendKycSubmission", success, (request) =>
      domestic.sendSubmission(actingOf(request), "individual", sources(request, path)),
    );
    post("submitKybInformation", z.object({ submissionId: z.uuid() }), (request) =>
      domestic.submitKybInformation(actingOf(request), sources(request, path)),
    );
    post("sendKybSubmission", success, (request) =>
      domestic.sendSubmission(actingOf(request), "business", sources(request, path)),
    );
    get("getKycRedirectLink", link, (request) =>
      domestic.redirectLink(actingOf(request), "individual", sources(request, path)),
    );
    get("getKybRedirectLink", link, (request) =>
      domestic.redirectLink(actingOf(request), "business", sources(request, path)),
    );
    post("kycRedirectOpened", success, (request) => domestic.redirectOpened(actingOf(request), sources(request, path)));
    post("kycRedirectFinished", success, (request) =>
      domestic.redirectFinished(actingOf(request), sources(request, path)),
    );
    post("retryKyc", z.union([link, success]), (request) => domestic.retry(actingOf(request), sources(request, path)));
    get(
      "getKycStatus",
      z.object({
        alfred_pay_id: z.uuid(),
        country: z.enum(DOMESTIC_COUNTRIES),
        status: domesticStatus,
        updated_at: isoDateTime,
        lastFailure: z.string().optional(),
      }),
      async (request) => await domestic.status(actingOf(request), sources(request, path)),
    );
    get(
      "alfredpayStatus",
      z.object({ country: z.enum(DOMESTIC_COUNTRIES), creationTime: isoDateTime, status: domesticStatus }),
      async (request) => await domestic.customerStatus(actingOf(request), sources(request, path)),
    );
  }

  const brazil = app.brazilOnboarding;
  const brazilStatus = z.object({
    type: z.enum(["KYC", "KYB"]),
    status: z.enum(["PENDING", "PROCESSING", "COMPLETED"]),
    result: z.enum(["APPROVED", "REJECTED"]).optional(),
    level: z.string(),
  });
  for (const [prefix, alias] of [
    ["/v1/brl", undefined],
    ["/v1/brla", "BRLA"],
  ] as const) {
    const tags = ["Customers and KYC (BR)"];
    const query = (shape: z.ZodRawShape) => jsonSchema(z.object(shape), "input");
    server.post(`${prefix}/createSubaccount`, {
      config,
      schema: {
        ...aliasedOperation("createSubaccount", "Create the BR subaccount, or retry its KYC", alias),
        tags,
        body: jsonSchema(createSubaccountInput, "input"),
        response: { 200: jsonSchema(z.object({ subAccountId: z.uuid() })), ...errorResponses(400, 401, 403) },
      },
      handler: (request) => brazil.createSubaccount(actingOf(request), request.body),
    });
    server.post(`${prefix}/newKyc`, {
      config,
      schema: {
        ...aliasedOperation("brNewKyc", "Submit level 1 KYC data", alias),
        tags,
        body: jsonSchema(newKycInput, "input"),
        response: { 200: jsonSchema(z.object({ id: z.uuid() })), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => brazil.submitLevelOne(actingOf(request), request.body),
    });
    server.get(`${prefix}/getKycStatus`, {
      config,
      schema: {
        ...aliasedOperation("fetchSubaccountKycStatus", "Get the BR KYC or KYB status", alias),
        tags,
        querystring: query({ taxId: z.string().optional() }),
        response: { 200: jsonSchema(brazilStatus), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => brazil.kycStatus(actingOf(request), request.query),
    });
    server.get(`${prefix}/getUser`, {
      config,
      schema: {
        ...aliasedOperation("getBrUser", "Get the BR user", alias),
        tags,
        querystring: query({ taxId: z.string().optional() }),
        response: {
          200: jsonSchema(
            z.object({
              subAccountId: z.uuid(),
              evmAddress: z.string(),
              kycLevel: z.number().int(),
              identityStatus: z.enum(["NOT-IDENTIFIED", "CONFIRMED"]),
            }),
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
      handler: (request) => brazil.user(actingOf(request), request.query),
    });
    server.get(`${prefix}/getUserRemainingLimit`, {
      config,
      schema: {
        ...aliasedOperation("getBrUserRemainingLimit", "Get the BR user's remaining limits", alias),
        tags,
        querystring: query({ taxId: z.string().optional(), direction: z.string().optional() }),
        response: { 200: jsonSchema(z.object({ remainingLimit: z.number() })), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => brazil.remainingLimit(actingOf(request), request.query),
    });
    server.post(`${prefix}/kyb/new-level-1/web-sdk`, {
      config,
      schema: {
        ...aliasedOperation("startBrKybLevel1Hosted", "Start hosted level 1 KYB", alias),
        tags,
        querystring: query({ subAccountId: z.string().optional() }),
        response: {
          200: jsonSchema(
            z.object({ attemptId: z.uuid(), authorizedRepresentativeUrl: z.url(), basicCompanyDataUrl: z.url() }),
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
      handler: (request) => brazil.startKyb(actingOf(request), request.query),
    });
    server.post(`${prefix}/kyc/import-token`, {
      config: { capabilities: ["BR_KYC_IMPORT"] as const, delegation: SELECTOR_ONLY },
      // The contract's cap for this route; Fastify answers 413 before the body is parsed.
      bodyLimit: IMPORT_TOKEN_BODY_LIMIT,
      schema: {
        ...aliasedOperation("importBrKycToken", "Import an individual's KYC by share token", alias),
        tags,
        headers: jsonSchema(z.object({ "idempotency-key": z.string().optional() }), "input"),
        body: jsonSchema(z.object({ importToken: z.string(), consentAttested: z.literal(true) }), "input"),
        response: {
          202: jsonSchema(z.object({ attemptId: z.uuid(), status: z.literal("pending") })),
          ...errorResponses(400, 401, 403, 404, 409, 413, 422),
        },
      },
      handler: async (request, reply) => {
        const { body } = await brazil.importToken(actingOf(request), {
          idempotencyKey: request.headers["idempotency-key"],
          query: request.query,
          body: request.body,
        });
        return reply.code(202).send(body);
      },
    });
    server.get(`${prefix}/kyb/attempt-status`, {
      config,
      schema: {
        ...aliasedOperation("getBrKybAttemptStatus", "Get the KYB attempt's status", alias),
        tags,
        querystring: query({ attemptId: z.string().optional() }),
        response: {
          200: jsonSchema(
            z.object({
              status: z.enum(["PENDING", "PROCESSING", "COMPLETED"]),
              result: z.enum(["APPROVED", "REJECTED"]).optional(),
              retryable: z.boolean().optional(),
            }),
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
      handler: (request) => brazil.kybAttemptStatus(actingOf(request), request.query),
    });
  }
}
