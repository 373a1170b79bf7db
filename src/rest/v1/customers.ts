import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { DELEGATED, SELECTOR_ONLY } from "../../auth/delegation.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../../reference-data/domestic.js";
import { actingOf, aliasedOperation, errorResponses, isoDateTime, jsonSchema, pathCountry } from "../http.js";
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

  const tags = ["Customers and KYC (AR, CO, MX, US)"];
  // Each operation is served under /v1/domestic and under the country aliases, whose path names the country.
  const post = <T>(
    urls: readonly string[],
    doc: { operationId: string; summary: string; body: z.ZodType },
    response: z.ZodType,
    handler: (request: FastifyRequest, path: DomesticCountry | undefined) => Promise<T>,
    codes: number[] = [400, 401, 403, 404],
  ) => {
    for (const url of urls) {
      server.post(url, {
        config,
        schema: {
          ...aliasedOperation(doc.operationId, doc.summary, url),
          tags,
          body: jsonSchema(doc.body, "input"),
          response: { 200: jsonSchema(response), ...errorResponses(...codes) },
        },
        handler: (request) => handler(request, pathCountry(url)),
      });
    }
  };
  const get = <T>(
    urls: readonly string[],
    doc: { operationId: string; summary: string },
    response: z.ZodType,
    handler: (request: FastifyRequest, path: DomesticCountry | undefined) => Promise<T>,
  ) => {
    for (const url of urls) {
      server.get(url, {
        config,
        schema: {
          ...aliasedOperation(doc.operationId, doc.summary, url),
          tags,
          querystring: jsonSchema(countryQuery, "input"),
          response: { 200: jsonSchema(response), ...errorResponses(400, 401, 403, 404) },
        },
        handler: (request) => handler(request, pathCountry(url)),
      });
    }
  };

  post(
    [
      "/v1/domestic/createIndividualCustomer",
      "/v1/ar/createIndividualCustomer",
      "/v1/co/createIndividualCustomer",
      "/v1/mx/createIndividualCustomer",
    ],
    {
      operationId: "createDomesticIndividualCustomer",
      summary: "Create the individual provider customer",
      body: customerInput,
    },
    z.object({ createdAt: isoDateTime }),
    async (request, path) => await domestic.createCustomer(actingOf(request), "individual", sources(request, path)),
    [400, 401, 403],
  );
  post(
    [
      "/v1/domestic/createBusinessCustomer",
      "/v1/ar/createBusinessCustomer",
      "/v1/co/createBusinessCustomer",
      "/v1/mx/createBusinessCustomer",
    ],
    {
      operationId: "createDomesticBusinessCustomer",
      summary: "Create the business provider customer",
      body: customerInput,
    },
    z.object({ createdAt: isoDateTime }),
    async (request, path) => await domestic.createCustomer(actingOf(request), "business", sources(request, path)),
    [400, 401, 403],
  );
  post(
    [
      "/v1/domestic/submitKycInformation",
      "/v1/ar/submitKycInformation",
      "/v1/co/submitKycInformation",
      "/v1/mx/submitKycInformation",
    ],
    {
      operationId: "submitDomesticKycInformation",
      summary: "Submit an individual's KYC information",
      body: kycInformation,
    },
    z.object({ submissionId: z.uuid() }),
    (request, path) => domestic.submitKycInformation(actingOf(request), sources(request, path)),
  );
  post(
    [
      "/v1/domestic/sendKycSubmission",
      "/v1/ar/sendKycSubmission",
      "/v1/co/sendKycSubmission",
      "/v1/mx/sendKycSubmission",
    ],
    {
      operationId: "sendDomesticKycSubmission",
      summary: "Send a KYC submission for review",
      body: sendSubmissionInput,
    },
    success,
    (request, path) => domestic.sendSubmission(actingOf(request), "individual", sources(request, path)),
  );
  post(
    [
      "/v1/domestic/submitKybInformation",
      "/v1/ar/submitKybInformation",
      "/v1/co/submitKybInformation",
      "/v1/mx/submitKybInformation",
    ],
    {
      operationId: "submitDomesticKybInformation",
      summary: "Submit a business's KYB information",
      body: kybInformation,
    },
    z.object({ submissionId: z.uuid() }),
    (request, path) => domestic.submitKybInformation(actingOf(request), sources(request, path)),
  );
  post(
    [
      "/v1/domestic/sendKybSubmission",
      "/v1/ar/sendKybSubmission",
      "/v1/co/sendKybSubmission",
      "/v1/mx/sendKybSubmission",
    ],
    {
      operationId: "sendDomesticKybSubmission",
      summary: "Send a KYB submission for review",
      body: sendSubmissionInput,
    },
    success,
    (request, path) => domestic.sendSubmission(actingOf(request), "business", sources(request, path)),
  );
  get(
    [
      "/v1/domestic/getKycRedirectLink",
      "/v1/ar/getKycRedirectLink",
      "/v1/co/getKycRedirectLink",
      "/v1/mx/getKycRedirectLink",
    ],
    { operationId: "getDomesticKycRedirectLink", summary: "Get a link to the provider's hosted KYC" },
    link,
    (request, path) => domestic.redirectLink(actingOf(request), "individual", sources(request, path)),
  );
  get(
    [
      "/v1/domestic/getKybRedirectLink",
      "/v1/ar/getKybRedirectLink",
      "/v1/co/getKybRedirectLink",
      "/v1/mx/getKybRedirectLink",
    ],
    { operationId: "getDomesticKybRedirectLink", summary: "Get a link to the provider's hosted KYB" },
    link,
    (request, path) => domestic.redirectLink(actingOf(request), "business", sources(request, path)),
  );
  post(
    [
      "/v1/domestic/kycRedirectOpened",
      "/v1/ar/kycRedirectOpened",
      "/v1/co/kycRedirectOpened",
      "/v1/mx/kycRedirectOpened",
    ],
    {
      operationId: "notifyDomesticKycRedirectOpened",
      summary: "Report that the hosted KYC or KYB was opened",
      body: customerTypeInput,
    },
    success,
    (request, path) => domestic.redirectOpened(actingOf(request), sources(request, path)),
  );
  post(
    [
      "/v1/domestic/kycRedirectFinished",
      "/v1/ar/kycRedirectFinished",
      "/v1/co/kycRedirectFinished",
      "/v1/mx/kycRedirectFinished",
    ],
    {
      operationId: "notifyDomesticKycRedirectFinished",
      summary: "Report that the hosted KYC or KYB was finished",
      body: customerTypeInput,
    },
    success,
    (request, path) => domestic.redirectFinished(actingOf(request), sources(request, path)),
  );
  post(
    ["/v1/domestic/retryKyc", "/v1/ar/retryKyc", "/v1/co/retryKyc", "/v1/mx/retryKyc"],
    { operationId: "retryDomesticKyc", summary: "Retry a failed KYC or KYB", body: customerTypeInput },
    z.union([link, success]),
    (request, path) => domestic.retry(actingOf(request), sources(request, path)),
  );
  get(
    ["/v1/domestic/getKycStatus", "/v1/ar/getKycStatus", "/v1/co/getKycStatus", "/v1/mx/getKycStatus"],
    { operationId: "getDomesticKycStatus", summary: "Get the KYC or KYB status" },
    z.object({
      alfred_pay_id: z.uuid(),
      country: z.enum(DOMESTIC_COUNTRIES),
      status: domesticStatus,
      updated_at: isoDateTime,
      lastFailure: z.string().optional(),
    }),
    async (request, path) => await domestic.status(actingOf(request), sources(request, path)),
  );
  get(
    ["/v1/domestic/alfredpayStatus", "/v1/ar/alfredpayStatus", "/v1/co/alfredpayStatus", "/v1/mx/alfredpayStatus"],
    { operationId: "getDomesticStatus", summary: "Get the provider customer's status" },
    z.object({ country: z.enum(DOMESTIC_COUNTRIES), creationTime: isoDateTime, status: domesticStatus }),
    async (request, path) => await domestic.customerStatus(actingOf(request), sources(request, path)),
  );

  const brazil = app.brazilOnboarding;
  const brazilStatus = z.object({
    type: z.enum(["KYC", "KYB"]),
    status: z.enum(["PENDING", "PROCESSING", "COMPLETED"]),
    result: z.enum(["APPROVED", "REJECTED"]).optional(),
    level: z.string(),
  });
  const brazilTags = ["Customers and KYC (BR)"];
  const query = (shape: z.ZodRawShape) => jsonSchema(z.object(shape), "input");
  // Each operation is served under /v1/brl and under its alias /v1/brla.
  for (const url of ["/v1/brl/createSubaccount", "/v1/brla/createSubaccount"]) {
    server.post(url, {
      config,
      schema: {
        ...aliasedOperation("createSubaccount", "Create the BR subaccount, or retry its KYC", url),
        tags: brazilTags,
        body: jsonSchema(createSubaccountInput, "input"),
        response: { 200: jsonSchema(z.object({ subAccountId: z.uuid() })), ...errorResponses(400, 401, 403) },
      },
      handler: (request) => brazil.createSubaccount(actingOf(request), request.body),
    });
  }
  for (const url of ["/v1/brl/newKyc", "/v1/brla/newKyc"]) {
    server.post(url, {
      config,
      schema: {
        ...aliasedOperation("brNewKyc", "Submit level 1 KYC data", url),
        tags: brazilTags,
        body: jsonSchema(newKycInput, "input"),
        response: { 200: jsonSchema(z.object({ id: z.uuid() })), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => brazil.submitLevelOne(actingOf(request), request.body),
    });
  }
  for (const url of ["/v1/brl/getKycStatus", "/v1/brla/getKycStatus"]) {
    server.get(url, {
      config,
      schema: {
        ...aliasedOperation("fetchSubaccountKycStatus", "Get the BR KYC or KYB status", url),
        tags: brazilTags,
        querystring: query({ taxId: z.string().optional() }),
        response: { 200: jsonSchema(brazilStatus), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => brazil.kycStatus(actingOf(request), request.query),
    });
  }
  for (const url of ["/v1/brl/getUser", "/v1/brla/getUser"]) {
    server.get(url, {
      config,
      schema: {
        ...aliasedOperation("getBrUser", "Get the BR user", url),
        tags: brazilTags,
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
  }
  for (const url of ["/v1/brl/getUserRemainingLimit", "/v1/brla/getUserRemainingLimit"]) {
    server.get(url, {
      config,
      schema: {
        ...aliasedOperation("getBrUserRemainingLimit", "Get the BR user's remaining limits", url),
        tags: brazilTags,
        querystring: query({ taxId: z.string().optional(), direction: z.string().optional() }),
        response: { 200: jsonSchema(z.object({ remainingLimit: z.number() })), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => brazil.remainingLimit(actingOf(request), request.query),
    });
  }
  for (const url of ["/v1/brl/kyb/new-level-1/web-sdk", "/v1/brla/kyb/new-level-1/web-sdk"]) {
    server.post(url, {
      config,
      schema: {
        ...aliasedOperation("startBrKybLevel1Hosted", "Start hosted level 1 KYB", url),
        tags: brazilTags,
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
  }
  for (const url of ["/v1/brl/kyc/import-token", "/v1/brla/kyc/import-token"]) {
    server.post(url, {
      config: { capabilities: ["BR_KYC_IMPORT"] as const, delegation: SELECTOR_ONLY },
      // The contract's cap for this route; Fastify answers 413 before the body is parsed.
      bodyLimit: IMPORT_TOKEN_BODY_LIMIT,
      schema: {
        ...aliasedOperation("importBrKycToken", "Import an individual's KYC by share token", url),
        tags: brazilTags,
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
  }
  for (const url of ["/v1/brl/kyb/attempt-status", "/v1/brla/kyb/attempt-status"]) {
    server.get(url, {
      config,
      schema: {
        ...aliasedOperation("getBrKybAttemptStatus", "Get the KYB attempt's status", url),
        tags: brazilTags,
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
