import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { AppError } from "../../errors.js";
import { idempotencyKey, idempotencyKeyText } from "../../idempotency/service.js";
import {
  importTokenInput,
  kybDocumentInput,
  kybLevelOneInput,
  kybUboInput,
  type DocumentUpload,
  type KybDocumentStatus,
} from "../../onboarding/brazil.js";
import {
  DOMESTIC_STATUSES,
  KYB_COUNTRIES,
  customerTypeInput,
  kybInformation,
  kycInformation,
  sendSubmissionInput,
  type DomesticCaseView,
  type KybSubmissionView,
} from "../../kyc/domestic.js";
import {
  ALIASED_CUSTOMER_OPERATIONS,
  BRAZIL_CUSTOMER_OPERATIONS,
  BRLA_CUSTOMER_OPERATIONS,
  DOMESTIC_CUSTOMER_OPERATIONS,
} from "../../operations/customers.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../../reference-data/domestic.js";
import { fieldError, isObject } from "../../validation.js";
import { isoDateTime, jsonSchema, sentBody, withRequestCountry } from "../http.js";
import { operationRoute } from "../operation-route.js";

const IMPORT_TOKEN_BODY_LIMIT = 16 * 1024;
const success = z.object({ success: z.boolean() });
const link = z.object({ submissionId: z.uuid(), verification_url: z.url() });
const domesticStatus = z.enum(DOMESTIC_STATUSES);
/** Where a domestic request may name its country besides the alias path. */
const countryField = { country: z.enum(DOMESTIC_COUNTRIES).optional() };
const countryQuery = z.object(countryField);
const typedQuery = countryQuery.extend({ type: z.enum(["INDIVIDUAL", "BUSINESS"]).optional() });
const brazilStatus = z.object({
  type: z.enum(["KYC", "KYB"]),
  status: z.enum(["PENDING", "PROCESSING", "COMPLETED"]),
  result: z.enum(["APPROVED", "REJECTED"]).optional(),
  level: z.string(),
});

/** The reference's names for KYC fields that are the same facts as the operation's, under other names. */
const KYC_WIRE_NAMES = {
  documentType: "typeDocument",
  documentNumber: "dni",
  colombianDocumentType: "typeDocumentCol",
  argentineDocumentType: "typeDocumentAr",
  phone: "phoneNumber",
  politicallyExposed: "pep",
} satisfies Partial<Record<keyof typeof kycInformation.shape, string>>;

/** A strict body with its fields under the wire's names, in the same order: what the document shows. */
const wireNamedBody = (body: z.ZodObject, names: Record<string, string>) =>
  z.strictObject(
    Object.fromEntries(Object.entries(body.shape).map(([field, schema]) => [names[field] ?? field, schema])),
  );

const linkReply = ({ submissionId, url }: { submissionId: string; url: string }) => ({
  submissionId,
  verification_url: url,
});
const succeeded = () => ({ success: true });

/**
 * The Idempotency-Key and body of a token import: the key is checked first, and the subject comes from the
 * credential only, so any query field (a profile, user or tax id) is refused, as is a body naming the key.
 */
function importTokenRequest(request: FastifyRequest): unknown {
  const key = idempotencyKey(request.headers["idempotency-key"]);
  const named = Object.keys(isObject(request.query) ? request.query : {});
  if (named.length) {
    throw new AppError(
      "VALIDATION_FAILED",
      "The subject comes from the credential, not the query.",
      named.map((field) => ({ field, message: "is not accepted: the subject comes from the credential" })),
    );
  }
  const { body } = request;
  if (!isObject(body)) return body;
  if ("idempotencyKey" in body) throw fieldError("idempotencyKey", "is sent as the Idempotency-Key header");
  return { ...body, idempotencyKey: key };
}

/**
 * Customers and KYC/KYB of the subject (CONTRACT.md, KYC/KYB and fiat accounts): the reference's
 * `/v1/domestic/*` operations (also under `/v1/ar`, `/v1/co`, `/v1/mx`, where the path names the country)
 * and `/v1/brl/*` (also `/v1/brla/*`). The adapter decides a domestic request's country; the operations
 * check the corridor and the customer type.
 */
export function customerRoutes(server: FastifyInstance, app: App) {
  const tags = ["Customers and KYC (AR, CO, MX, US)"];
  const { ar, co, mx } = ALIASED_CUSTOMER_OPERATIONS;
  const domestic = DOMESTIC_CUSTOMER_OPERATIONS;

  /** A change: its body (the country may come from the path or the query instead). */
  const change = <Result>(
    url: string,
    body: z.ZodObject,
    response: z.ZodType,
    reply: (result: Result) => unknown,
    options: { errors?: number[]; countries?: readonly DomesticCountry[]; wireNames?: Record<string, string> } = {},
  ) => ({
    method: "POST" as const,
    url,
    tags,
    response: jsonSchema(response),
    errors: options.errors ?? [400, 401, 403, 404],
    input: withRequestCountry(url, "body", options.countries),
    wireNames: options.wireNames,
    documented: {
      querystring: jsonSchema(countryQuery, "input"),
      body: jsonSchema(
        // safeExtend: a form's cross-field rules (KYB's questionnaire) stay with it.
        (options.wireNames ? wireNamedBody(body, options.wireNames) : body).safeExtend(countryField),
        "input",
      ),
    },
    reply,
  });
  /** A read: its query. */
  const read = <Result>(url: string, query: z.ZodObject, response: z.ZodType, reply: (result: Result) => unknown) => ({
    method: "GET" as const,
    url,
    tags,
    response: jsonSchema(response),
    errors: [400, 401, 403, 404],
    input: withRequestCountry(url, "query"),
    documented: { querystring: jsonSchema(query, "input") },
    reply,
  });

  const createdResponse = z.object({ createdAt: isoDateTime });
  const created = ({ createdAt }: DomesticCaseView) => ({ createdAt });
  const customerBody = z.object({}).strict();
  for (const [operations, url] of [
    [domestic, "/v1/domestic/createIndividualCustomer"],
    [ar, "/v1/ar/createIndividualCustomer"],
    [co, "/v1/co/createIndividualCustomer"],
    [mx, "/v1/mx/createIndividualCustomer"],
  ] as const) {
    const face = change(url, customerBody, createdResponse, created, { errors: [400, 401, 403] });
    operationRoute(server, app, operations.createIndividualCustomer, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/createBusinessCustomer"],
    [ar, "/v1/ar/createBusinessCustomer"],
    [co, "/v1/co/createBusinessCustomer"],
    [mx, "/v1/mx/createBusinessCustomer"],
  ] as const) {
    const face = change(url, customerBody, createdResponse, created, { errors: [400, 401, 403] });
    operationRoute(server, app, operations.createBusinessCustomer, face);
  }

  const submitted = z.object({ submissionId: z.uuid() });
  const asItIs = <Result>(result: Result) => result;
  for (const [operations, url] of [
    [domestic, "/v1/domestic/submitKycInformation"],
    [ar, "/v1/ar/submitKycInformation"],
    [co, "/v1/co/submitKycInformation"],
    [mx, "/v1/mx/submitKycInformation"],
  ] as const) {
    const face = change(url, kycInformation, submitted, asItIs, { wireNames: KYC_WIRE_NAMES });
    operationRoute(server, app, operations.submitKycInformation, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/sendKycSubmission"],
    [ar, "/v1/ar/sendKycSubmission"],
    [co, "/v1/co/sendKycSubmission"],
    [mx, "/v1/mx/sendKycSubmission"],
  ] as const) {
    operationRoute(server, app, operations.sendKycSubmission, change(url, sendSubmissionInput, success, succeeded));
  }
  // KYB is served in CO and MX only: another country is refused where the request names it.
  const kyb = { countries: ["CO", "MX"] as const };
  for (const [operations, url] of [
    [domestic, "/v1/domestic/submitKybInformation"],
    [ar, "/v1/ar/submitKybInformation"],
    [co, "/v1/co/submitKybInformation"],
    [mx, "/v1/mx/submitKybInformation"],
  ] as const) {
    const face = change(url, kybInformation, submitted, asItIs, kyb);
    operationRoute(server, app, operations.submitKybInformation, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/sendKybSubmission"],
    [ar, "/v1/ar/sendKybSubmission"],
    [co, "/v1/co/sendKybSubmission"],
    [mx, "/v1/mx/sendKybSubmission"],
  ] as const) {
    operationRoute(server, app, operations.sendKybSubmission, change(url, sendSubmissionInput, success, succeeded));
  }

  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKycRedirectLink"],
    [ar, "/v1/ar/getKycRedirectLink"],
    [co, "/v1/co/getKycRedirectLink"],
    [mx, "/v1/mx/getKycRedirectLink"],
  ] as const) {
    operationRoute(server, app, operations.kycRedirectLink, read(url, countryQuery, link, linkReply));
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKybRedirectLink"],
    [ar, "/v1/ar/getKybRedirectLink"],
    [co, "/v1/co/getKybRedirectLink"],
    [mx, "/v1/mx/getKybRedirectLink"],
  ] as const) {
    operationRoute(server, app, operations.kybRedirectLink, read(url, countryQuery, link, linkReply));
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/kycRedirectOpened"],
    [ar, "/v1/ar/kycRedirectOpened"],
    [co, "/v1/co/kycRedirectOpened"],
    [mx, "/v1/mx/kycRedirectOpened"],
  ] as const) {
    operationRoute(server, app, operations.redirectOpened, change(url, customerTypeInput, success, succeeded));
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/kycRedirectFinished"],
    [ar, "/v1/ar/kycRedirectFinished"],
    [co, "/v1/co/kycRedirectFinished"],
    [mx, "/v1/mx/kycRedirectFinished"],
  ] as const) {
    operationRoute(server, app, operations.redirectFinished, change(url, customerTypeInput, success, succeeded));
  }
  // A redirect flow retried gets a new link; one through the API is open for a new submission.
  const retried = (result: { submissionId: string; url: string } | { success: true }) =>
    "url" in result ? linkReply(result) : result;
  for (const [operations, url] of [
    [domestic, "/v1/domestic/retryKyc"],
    [ar, "/v1/ar/retryKyc"],
    [co, "/v1/co/retryKyc"],
    [mx, "/v1/mx/retryKyc"],
  ] as const) {
    operationRoute(server, app, operations.retry, change(url, customerTypeInput, z.union([link, success]), retried));
  }

  const kycStatus = z.object({
    alfred_pay_id: z.uuid(),
    country: z.enum(DOMESTIC_COUNTRIES),
    status: domesticStatus,
    updated_at: isoDateTime,
    lastFailure: z.string().optional(),
  });
  const kycStatusReply = ({ providerCustomerId, country, status, updatedAt }: DomesticCaseView) => ({
    alfred_pay_id: providerCustomerId,
    country,
    status,
    updated_at: updatedAt,
    // Why a case failed stays with support; callers learn only that it did.
    ...(status === "FAILED" && { lastFailure: "The verification was not approved." }),
  });
  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKycStatus"],
    [ar, "/v1/ar/getKycStatus"],
    [co, "/v1/co/getKycStatus"],
    [mx, "/v1/mx/getKycStatus"],
  ] as const) {
    operationRoute(server, app, operations.kycStatus, read(url, typedQuery, kycStatus, kycStatusReply));
  }
  const customerStatus = z.object({
    country: z.enum(DOMESTIC_COUNTRIES),
    creationTime: isoDateTime,
    status: domesticStatus,
  });
  const customerStatusReply = ({ country, createdAt, status }: DomesticCaseView) => ({
    country,
    creationTime: createdAt,
    status,
  });
  for (const [operations, url] of [
    [domestic, "/v1/domestic/alfredpayStatus"],
    [ar, "/v1/ar/alfredpayStatus"],
    [co, "/v1/co/alfredpayStatus"],
    [mx, "/v1/mx/alfredpayStatus"],
  ] as const) {
    operationRoute(server, app, operations.customerStatus, read(url, typedQuery, customerStatus, customerStatusReply));
  }
  const kybDetails = z.array(
    z.object({ submissionId: z.uuid(), relatedPersons: z.array(z.object({ idRelatedPerson: z.uuid() })) }),
  );
  const kybDetailsReply = (submissions: KybSubmissionView[]) =>
    submissions.map(({ submissionId, relatedPersonIds }) => ({
      submissionId,
      relatedPersons: relatedPersonIds.map((idRelatedPerson) => ({ idRelatedPerson })),
    }));
  for (const [operations, url] of [
    [domestic, "/v1/domestic/findKybCustomerAndBusiness"],
    [ar, "/v1/ar/findKybCustomerAndBusiness"],
    [co, "/v1/co/findKybCustomerAndBusiness"],
    [mx, "/v1/mx/findKybCustomerAndBusiness"],
  ] as const) {
    // KYB is served in CO and MX only, as for its information: another country is refused where it is named.
    operationRoute(server, app, operations.kybSubmissions, {
      ...read(url, countryQuery, kybDetails, kybDetailsReply),
      input: withRequestCountry(url, "query", KYB_COUNTRIES),
    });
  }

  brazilRoutes(server, app);
  brazilDocumentRoutes(server, app);
}

const BRAZIL_TAGS = ["Customers and KYC (BR)"];
/** A `/v1/brl` route's face: its method, path, answer and errors, under the BR tag. */
const brazilFace = (method: "GET" | "POST", url: string, response: z.ZodType, errors = [400, 401, 403, 404]) => ({
  method,
  url,
  tags: BRAZIL_TAGS,
  response: jsonSchema(response),
  errors,
});

/** `/v1/brl/*` and its legacy alias `/v1/brla/*`: subaccounts (BR customers) and their KYC/KYB. */
function brazilRoutes(server: FastifyInstance, app: App) {
  const brl = BRAZIL_CUSTOMER_OPERATIONS;
  const brla = BRLA_CUSTOMER_OPERATIONS;

  const subaccount = z.object({ subAccountId: z.uuid() });
  for (const [operations, url] of [
    [brl, "/v1/brl/createSubaccount"],
    [brla, "/v1/brla/createSubaccount"],
  ] as const) {
    operationRoute(server, app, operations.createSubaccount, brazilFace("POST", url, subaccount, [400, 401, 403]));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/newKyc"],
    [brla, "/v1/brla/newKyc"],
  ] as const) {
    operationRoute(server, app, operations.newKyc, brazilFace("POST", url, z.object({ id: z.uuid() })));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/getKycStatus"],
    [brla, "/v1/brla/getKycStatus"],
  ] as const) {
    operationRoute(server, app, operations.kycStatus, brazilFace("GET", url, brazilStatus));
  }
  const user = z.object({
    subAccountId: z.uuid(),
    evmAddress: z.string(),
    kycLevel: z.number().int(),
    identityStatus: z.enum(["NOT-IDENTIFIED", "CONFIRMED"]),
  });
  for (const [operations, url] of [
    [brl, "/v1/brl/getUser"],
    [brla, "/v1/brla/getUser"],
  ] as const) {
    operationRoute(server, app, operations.user, brazilFace("GET", url, user));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/getUserRemainingLimit"],
    [brla, "/v1/brla/getUserRemainingLimit"],
  ] as const) {
    operationRoute(
      server,
      app,
      operations.remainingLimit,
      brazilFace("GET", url, z.object({ remainingLimit: z.number() })),
    );
  }
  const hostedKyb = z.object({
    attemptId: z.uuid(),
    authorizedRepresentativeUrl: z.url(),
    basicCompanyDataUrl: z.url(),
  });
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/new-level-1/web-sdk"],
    [brla, "/v1/brla/kyb/new-level-1/web-sdk"],
  ] as const) {
    // The reference names the subaccount in the query of this POST.
    operationRoute(server, app, operations.startKyb, { ...brazilFace("POST", url, hostedKyb), from: "query" });
  }
  const attemptStatus = z.object({
    status: z.enum(["PENDING", "PROCESSING", "COMPLETED"]),
    result: z.enum(["APPROVED", "REJECTED"]).optional(),
    retryable: z.boolean().optional(),
  });
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/attempt-status"],
    [brla, "/v1/brla/kyb/attempt-status"],
  ] as const) {
    operationRoute(server, app, operations.kybAttemptStatus, brazilFace("GET", url, attemptStatus));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/validatePixKey"],
    [brla, "/v1/brla/validatePixKey"],
  ] as const) {
    // The key is not echoed back (the reference's rule: it may be a tax id, an email or a phone number).
    operationRoute(
      server,
      app,
      operations.validatePixKey,
      brazilFace("GET", url, z.object({ valid: z.boolean() }), [400, 401, 403]),
    );
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyc/record-attempt"],
    [brla, "/v1/brla/kyc/record-attempt"],
  ] as const) {
    // The reference answers an empty object (GraphQL shows what was recorded).
    operationRoute(server, app, operations.recordKycAttempt, {
      ...brazilFace("POST", url, z.strictObject({})),
      reply: () => ({}),
    });
  }

  const pendingImport = z.object({ attemptId: z.uuid(), status: z.literal("pending") });
  for (const [operations, url] of [
    [brl, "/v1/brl/kyc/import-token"],
    [brla, "/v1/brla/kyc/import-token"],
  ] as const) {
    operationRoute(server, app, operations.importToken, {
      ...brazilFace("POST", url, pendingImport, [400, 401, 403, 404, 409, 413, 422]),
      status: 202,
      // The contract's cap for this route; Fastify answers 413 before the body is parsed.
      bodyLimit: IMPORT_TOKEN_BODY_LIMIT,
      input: importTokenRequest,
      documented: {
        headers: jsonSchema(z.object({ "idempotency-key": idempotencyKeyText }), "input"),
        body: jsonSchema(importTokenInput.omit({ idempotencyKey: true }), "input"),
      },
      reply: ({ body }: { body: unknown }) => body,
    });
  }
}

/** A document's upload targets under the reference's names (DocumentUploadEntry). */
const uploadEntry = z.object({
  id: z.uuid(),
  uploadURLFront: z.url(),
  uploadURLBack: z.url().optional(),
  livenessUrl: z.url().optional(),
  validateLivenessToken: z.string().optional(),
});
const entryOf = ({ documentId, frontUrl, backUrl, liveness }: DocumentUpload) => ({
  id: documentId,
  uploadURLFront: frontUrl,
  ...(backUrl && { uploadURLBack: backUrl }),
  ...(liveness && { livenessUrl: liveness.url, validateLivenessToken: liveness.validationToken }),
});

/** Why a side's file will not come, for the reference's uploadError fields. */
const SIDE_ERRORS: Partial<Record<KybDocumentStatus["front"], string>> = {
  expired: "The upload URL expired before the file arrived: create the document again.",
  missing: "The file is no longer stored: create the document again.",
};

/**
 * The input of a company subaccount's KYB operation as the reference sends it: the subaccount in the query,
 * the rest in the body (which must not name it too).
 */
function subaccountInQuery(request: FastifyRequest): unknown {
  const body = sentBody(request);
  if (body !== undefined && !isObject(body)) return body;
  if (body && "subAccountId" in body) throw fieldError("subAccountId", "is sent in the query");
  const { subAccountId } = (isObject(request.query) ? request.query : {}) as { subAccountId?: unknown };
  return { ...body, subAccountId };
}

/** What the document shows of a subaccountInQuery input. */
const subaccountInQueryDocumented = (input: z.ZodObject) => ({
  querystring: jsonSchema(input.pick({ subAccountId: true }), "input"),
  body: jsonSchema(input.omit({ subAccountId: true }), "input"),
});

/**
 * `/v1/brl/*` (and `/v1/brla/*`) operations that open document uploads: the files go to the URLs they answer
 * (PUT, src/rest/v1/uploads.ts), and newKyc, the KYB document read, UBOs and API KYB then name them.
 */
function brazilDocumentRoutes(server: FastifyInstance, app: App) {
  const brl = BRAZIL_CUSTOMER_OPERATIONS;
  const brla = BRLA_CUSTOMER_OPERATIONS;

  const uploadUrls = z.object({ idUpload: uploadEntry, selfieUpload: uploadEntry });
  for (const [operations, url] of [
    [brl, "/v1/brl/getUploadUrls"],
    [brla, "/v1/brla/getUploadUrls"],
  ] as const) {
    operationRoute(server, app, operations.uploadUrls, {
      ...brazilFace("POST", url, uploadUrls, [400, 401, 403]),
      reply: ({ identityDocument, selfie }: { identityDocument: DocumentUpload; selfie: DocumentUpload }) => ({
        idUpload: entryOf(identityDocument),
        selfieUpload: entryOf(selfie),
      }),
    });
  }
  const selfieUpload = uploadEntry.pick({ id: true, uploadURLFront: true }).extend({
    livenessUrl: z.url(),
    validateLivenessToken: z.string(),
  });
  for (const [operations, url] of [
    [brl, "/v1/brl/getSelfieLivenessUrl"],
    [brla, "/v1/brla/getSelfieLivenessUrl"],
  ] as const) {
    operationRoute(server, app, operations.selfieUpload, {
      ...brazilFace("GET", url, selfieUpload, [400, 401, 403]),
      reply: entryOf,
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/documents"],
    [brla, "/v1/brla/kyb/documents"],
  ] as const) {
    operationRoute(server, app, operations.createKybDocument, {
      ...brazilFace("POST", url, uploadEntry),
      status: 201,
      input: subaccountInQuery,
      documented: subaccountInQueryDocumented(kybDocumentInput),
      reply: entryOf,
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/ubos"],
    [brla, "/v1/brla/kyb/ubos"],
  ] as const) {
    operationRoute(server, app, operations.createKybUbo, {
      ...brazilFace("POST", url, z.object({ id: z.uuid() })),
      status: 201,
      input: subaccountInQuery,
      documented: subaccountInQueryDocumented(kybUboInput),
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/new-level-1/api"],
    [brla, "/v1/brla/kyb/new-level-1/api"],
  ] as const) {
    operationRoute(server, app, operations.submitKybApi, {
      ...brazilFace("POST", url, z.object({ id: z.uuid() })),
      input: subaccountInQuery,
      documented: subaccountInQueryDocumented(kybLevelOneInput),
    });
  }
  const sideStatus = z.enum(["PENDING", "UPLOADED", "EXPIRED", "MISSING"]);
  const kybDocument = z.object({
    document: z.object({
      id: z.uuid(),
      documentType: z.string(),
      uploadStatusFront: sideStatus,
      uploadStatusBack: sideStatus.optional(),
      uploadErrorFront: z.string().optional(),
      uploadErrorBack: z.string().optional(),
      ready: z.boolean(),
    }),
  });
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/documents/:documentId"],
    [brla, "/v1/brla/kyb/documents/:documentId"],
  ] as const) {
    operationRoute(server, app, operations.kybDocument, {
      ...brazilFace("GET", url, kybDocument),
      reply: ({ id, documentType, front, back, ready }: KybDocumentStatus) => ({
        document: {
          id,
          documentType,
          uploadStatusFront: front.toUpperCase(),
          ...(back && { uploadStatusBack: back.toUpperCase() }),
          ...(SIDE_ERRORS[front] && { uploadErrorFront: SIDE_ERRORS[front] }),
          ...(back && SIDE_ERRORS[back] && { uploadErrorBack: SIDE_ERRORS[back] }),
          ready,
        },
      }),
    });
  }
}
