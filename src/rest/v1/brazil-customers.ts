import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { AppError } from "../../errors.js";
import { idempotencyKey, idempotencyKeyText } from "../../idempotency/service.js";
import {
  kybAttemptView,
  kybDocumentInput,
  kybDocumentView,
  kybLevelOneInput,
  kybUboInput,
  type KybAttemptView,
  type KybDocumentView,
} from "../../onboarding/brazil-kyb-types.js";
import {
  documentUploadView,
  importTokenInput,
  kycStatusView,
  type KycStatusView,
} from "../../onboarding/brazil-subaccount-types.js";
import { BRAZIL_CUSTOMER_OPERATIONS, BRLA_CUSTOMER_OPERATIONS } from "../../operations/brazil-customers.js";
import { fieldError, isObject } from "../../validation.js";
import { jsonSchema, sentBody } from "../http.js";
import { operationRoute } from "../operation-route.js";
import { toWire, wireSchema, type WireForm } from "../wire-form.js";

const IMPORT_TOKEN_BODY_LIMIT = 16 * 1024;
const TAGS = ["Customers and KYC (BR)"];

/** The reference's nulls are left out. */
const NULLS_LEFT_OUT: WireForm = { nullsLeftOut: true };
/** A document's upload targets under the reference's names (DocumentUploadEntry). */
const UPLOAD_ENTRY: WireForm = {
  names: {
    documentId: "id",
    frontUploadUrl: "uploadURLFront",
    backUploadUrl: "uploadURLBack",
    livenessValidationToken: "validateLivenessToken",
  },
  nullsLeftOut: true,
};
/** A KYB document under the reference's names, its sides' states in capitals. */
const KYB_DOCUMENT: WireForm = {
  names: { documentId: "id", front: "uploadStatusFront", back: "uploadStatusBack" },
  capitals: ["front", "back"],
  nullsLeftOut: true,
};

/*
 * What the reference's wire says that no output field holds, or holds otherwise: each is derived from the
 * output beside the fields the wire form spells.
 */

/** The reference names the check (KYC, KYB) where the output names the customer type, and writes the level as text. */
const kycStatus = z.object({
  type: z.enum(["KYC", "KYB"]),
  ...wireSchema(kycStatusView, { ...NULLS_LEFT_OUT, only: ["status", "result"] }).shape,
  level: z.string().describe(kycStatusView.shape.level.description!),
});
const kycStatusReply = ({ customerType, level, ...verification }: KycStatusView) => ({
  type: customerType === "business" ? "KYB" : "KYC",
  ...(toWire(verification, NULLS_LEFT_OUT) as object),
  level: String(level),
});

/** The reference says an attempt is retryable only when it is. */
const kybAttempt = wireSchema(kybAttemptView, NULLS_LEFT_OUT).extend({
  retryable: kybAttemptView.shape.retryable.optional(),
});
const kybAttemptReply = ({ retryable, ...attempt }: KybAttemptView) => ({
  ...(toWire(attempt, NULLS_LEFT_OUT) as object),
  ...(retryable && { retryable }),
});

/** The reference says why a side's file will not come (uploadError fields). */
const SIDE_ERRORS: Partial<Record<KybDocumentView["front"], string>> = {
  expired: "The upload URL expired before the file arrived: create the document again.",
  missing: "The file is no longer stored: create the document again.",
};
const kybDocument = z.object({
  document: wireSchema(kybDocumentView, KYB_DOCUMENT).extend({
    uploadErrorFront: z.string().optional(),
    uploadErrorBack: z.string().optional(),
  }),
});
const kybDocumentReply = (document: KybDocumentView) => ({
  document: {
    ...(toWire(document, KYB_DOCUMENT) as object),
    ...(SIDE_ERRORS[document.front] && { uploadErrorFront: SIDE_ERRORS[document.front] }),
    ...(document.back && SIDE_ERRORS[document.back] && { uploadErrorBack: SIDE_ERRORS[document.back] }),
  },
});

/** A selfie has one side, and always its liveness check. */
const SELFIE_ENTRY: WireForm = {
  ...UPLOAD_ENTRY,
  only: ["documentId", "frontUploadUrl", "livenessUrl", "livenessValidationToken"],
};
const selfieUpload = wireSchema(documentUploadView, SELFIE_ENTRY).required({
  livenessUrl: true,
  validateLivenessToken: true,
});

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

/** A KYB operation's face whose subaccount is in the query: what it reads, and what the document shows of it. */
const subaccountInQueryFace = (input: z.ZodObject) => ({
  input: subaccountInQuery,
  documented: {
    querystring: jsonSchema(input.pick({ subAccountId: true }), "input"),
    body: jsonSchema(input.omit({ subAccountId: true }), "input"),
  },
});

/** A `/v1/brl` route's face: its method, path and errors, under the BR tag. */
const face = (method: "GET" | "POST", url: string, errors = [400, 401, 403, 404]) => ({
  method,
  url,
  tags: TAGS,
  errors,
});

/**
 * `/v1/brl/*` and its legacy alias `/v1/brla/*`: subaccounts (BR customers) and their KYC/KYB (CONTRACT.md,
 * KYC/KYB and fiat accounts).
 */
export function brazilCustomerRoutes(server: FastifyInstance, app: App) {
  brazilRoutes(server, app);
  brazilDocumentRoutes(server, app);
}

/** Subaccounts, their KYC, the hosted KYB and its attempts. */
function brazilRoutes(server: FastifyInstance, app: App) {
  const brl = BRAZIL_CUSTOMER_OPERATIONS;
  const brla = BRLA_CUSTOMER_OPERATIONS;

  for (const [operations, url] of [
    [brl, "/v1/brl/createSubaccount"],
    [brla, "/v1/brla/createSubaccount"],
  ] as const) {
    operationRoute(server, app, operations.createSubaccount, face("POST", url, [400, 401, 403]));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/newKyc"],
    [brla, "/v1/brla/newKyc"],
  ] as const) {
    operationRoute(server, app, operations.newKyc, { ...face("POST", url), wire: { names: { submissionId: "id" } } });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/getKycStatus"],
    [brla, "/v1/brla/getKycStatus"],
  ] as const) {
    operationRoute(server, app, operations.kycStatus, {
      ...face("GET", url),
      response: jsonSchema(kycStatus),
      reply: kycStatusReply,
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/getUser"],
    [brla, "/v1/brla/getUser"],
  ] as const) {
    operationRoute(server, app, operations.user, face("GET", url));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/getUserRemainingLimit"],
    [brla, "/v1/brla/getUserRemainingLimit"],
  ] as const) {
    operationRoute(server, app, operations.remainingLimit, face("GET", url));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/new-level-1/web-sdk"],
    [brla, "/v1/brla/kyb/new-level-1/web-sdk"],
  ] as const) {
    // The reference names the subaccount in the query of this POST.
    operationRoute(server, app, operations.startKyb, { ...face("POST", url), from: "query" });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/attempt-status"],
    [brla, "/v1/brla/kyb/attempt-status"],
  ] as const) {
    operationRoute(server, app, operations.kybAttemptStatus, {
      ...face("GET", url),
      response: jsonSchema(kybAttempt),
      reply: kybAttemptReply,
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/validatePixKey"],
    [brla, "/v1/brla/validatePixKey"],
  ] as const) {
    // The key is not echoed back (the reference's rule: it may be a tax id, an email or a phone number).
    operationRoute(server, app, operations.validatePixKey, face("GET", url, [400, 401, 403]));
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyc/record-attempt"],
    [brla, "/v1/brla/kyc/record-attempt"],
  ] as const) {
    // The reference answers an empty object (GraphQL shows what was recorded).
    operationRoute(server, app, operations.recordKycAttempt, {
      ...face("POST", url),
      response: jsonSchema(z.strictObject({})),
      reply: () => ({}),
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyc/import-token"],
    [brla, "/v1/brla/kyc/import-token"],
  ] as const) {
    operationRoute(server, app, operations.importToken, {
      ...face("POST", url, [400, 401, 403, 404, 409, 413, 422]),
      status: 202,
      // The contract's cap for this route; Fastify answers 413 before the body is parsed.
      bodyLimit: IMPORT_TOKEN_BODY_LIMIT,
      input: importTokenRequest,
      documented: {
        headers: jsonSchema(z.object({ "idempotency-key": idempotencyKeyText }), "input"),
        body: jsonSchema(importTokenInput.omit({ idempotencyKey: true }), "input"),
      },
    });
  }
}

/**
 * Operations that open document uploads: the files go to the URLs they answer (PUT, src/rest/v1/uploads.ts),
 * and newKyc, the KYB document read, UBOs and API KYB then name them.
 */
function brazilDocumentRoutes(server: FastifyInstance, app: App) {
  const brl = BRAZIL_CUSTOMER_OPERATIONS;
  const brla = BRLA_CUSTOMER_OPERATIONS;

  for (const [operations, url] of [
    [brl, "/v1/brl/getUploadUrls"],
    [brla, "/v1/brla/getUploadUrls"],
  ] as const) {
    operationRoute(server, app, operations.uploadUrls, {
      ...face("POST", url, [400, 401, 403]),
      wire: {
        names: { identityDocument: "idUpload", selfie: "selfieUpload" },
        fields: { identityDocument: UPLOAD_ENTRY, selfie: UPLOAD_ENTRY },
      },
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/getSelfieLivenessUrl"],
    [brla, "/v1/brla/getSelfieLivenessUrl"],
  ] as const) {
    operationRoute(server, app, operations.selfieUpload, {
      ...face("GET", url, [400, 401, 403]),
      response: jsonSchema(selfieUpload),
      wire: SELFIE_ENTRY,
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/documents"],
    [brla, "/v1/brla/kyb/documents"],
  ] as const) {
    operationRoute(server, app, operations.createKybDocument, {
      ...face("POST", url),
      ...subaccountInQueryFace(kybDocumentInput),
      status: 201,
      wire: UPLOAD_ENTRY,
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/ubos"],
    [brla, "/v1/brla/kyb/ubos"],
  ] as const) {
    operationRoute(server, app, operations.createKybUbo, {
      ...face("POST", url),
      ...subaccountInQueryFace(kybUboInput),
      status: 201,
      wire: { names: { beneficialOwnerId: "id" } },
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/new-level-1/api"],
    [brla, "/v1/brla/kyb/new-level-1/api"],
  ] as const) {
    operationRoute(server, app, operations.submitKybApi, {
      ...face("POST", url),
      ...subaccountInQueryFace(kybLevelOneInput),
      wire: { names: { attemptId: "id" } },
    });
  }
  for (const [operations, url] of [
    [brl, "/v1/brl/kyb/documents/:documentId"],
    [brla, "/v1/brla/kyb/documents/:documentId"],
  ] as const) {
    operationRoute(server, app, operations.kybDocument, {
      ...face("GET", url),
      response: jsonSchema(kybDocument),
      reply: kybDocumentReply,
    });
  }
}
