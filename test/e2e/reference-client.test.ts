import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../reference/ramp-service.js";
import { httpSend } from "../support/e2e-http.js";
import { BUY_QUOTE, EVM_ADDRESS, waitFor } from "../support/kit.js";
import { LEVEL_ONE_KYC, randomCpf, uploadFile } from "../support/kyc.js";
import { rememberSecret } from "../support/secrets.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startWebhookReceiver, testCertificates, type WebhookReceiver } from "../support/webhook-receiver.js";

/**
 * The reference client (issue 14, item 3): a client generated from the production ramp service's published
 * OpenAPI document (`openapi-typescript` types from the facts-only extract test/reference/ramp-service.facts.json,
 * `openapi-fetch` calls) drives the whole integrator journey, unchanged, against the BUILT server process:
 * sign-in, an API credential, BR KYC to approved, quote, register, webhook, start, status to COMPLETE,
 * history, an error, limits. Every response is checked against the reference: its status must be one the
 * reference documents for the operation, and its body must validate (Ajv, JSON Schema 2020-12 as OpenAPI 3.1
 * uses) against the schema the reference gives for that status, except at the places listed in
 * DOCUMENTED_DIFFERENCES, and nowhere else.
 */

interface Difference {
  path: string;
  method: string;
  /** JSON pointer into the response body; `*` matches one array index; "" with `status` for a status code. */
  pointer: string;
  /** A whole status code the reference does not document, when the difference is the status itself. */
  status?: number;
  reason: string;
}

const PROVIDER_AGNOSTIC_PHASES =
  "phase names are the service's provider-agnostic ones (initial, awaitingPayment, ..., complete, failed, timedOut), not the reference's provider steps (docs/ramps.md, Lifecycle)";

/**
 * Deliberate differences from the reference (issue 14): ignored by the validation, nothing else is. Status
 * `COMPLETE` (the reference says `COMPLETED`) needs no entry: the reference types a ramp's status as any string.
 * A registered ramp's phase, `initial`, is one of the reference's names too.
 */
const DOCUMENTED_DIFFERENCES: Difference[] = [
  { path: "/v1/ramp/start", method: "post", pointer: "/currentPhase", reason: PROVIDER_AGNOSTIC_PHASES },
  { path: "/v1/ramp/{id}", method: "get", pointer: "/currentPhase", reason: PROVIDER_AGNOSTIC_PHASES },
  {
    path: "/v1/ramp/history",
    method: "get",
    pointer: "/transactions/*/currentPhase",
    reason: PROVIDER_AGNOSTIC_PHASES,
  },
  {
    path: "/v1/ramp/history",
    method: "get",
    pointer: "/transactions",
    reason:
      "the reference types `transactions` as one GetRampHistoryTransaction, not an array (a slip of the reference document): each item is checked against GetRampHistoryTransaction",
  },
  {
    path: "/v1/webhook",
    method: "post",
    pointer: "",
    status: 201,
    reason: "the specification answers a registration 201 Created; the reference documents 200",
  },
  {
    path: "/v1/ramp/{id}",
    method: "get",
    pointer: "",
    status: 404,
    reason:
      "an unknown ramp is 404 NOT_FOUND in the error envelope (the specification's table); the reference documents no 404",
  },
  {
    path: "/v1/ramp/{id}/errors",
    method: "get",
    pointer: "",
    reason: "the reference's 404 has no body; ours carries the error envelope, as every error does",
  },
];

const facts = JSON.parse(readFileSync(new URL("../reference/ramp-service.facts.json", import.meta.url), "utf8"));
// ajv-formats is CommonJS: its plugin is the module itself (Node, Vite) or its `default` (the typings).
const addFormats = ((ajvFormats as { default?: unknown }).default ?? ajvFormats) as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(facts, "reference");

const pointerSegment = (segment: string) => encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));

interface Mismatch {
  path: string;
  method: string;
  status: number;
  pointer: string;
  message: string;
}
const mismatches: Mismatch[] = [];

const matches = (difference: Difference, mismatch: Mismatch) =>
  difference.path === mismatch.path &&
  difference.method === mismatch.method &&
  (difference.status === undefined
    ? mismatch.message !== "undocumented status"
    : difference.status === mismatch.status) &&
  new RegExp(
    `^${difference.pointer
      .split("*")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[0-9]+")}$`,
  ).test(mismatch.pointer);

/** Checks one response against the reference; records what differs. Returns the parsed body. */
function check(path: keyof paths & string, method: string, response: Response, body: unknown): void {
  const operation = facts.paths[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} is in the reference`).toBeDefined();
  let documented = operation.responses[String(response.status)] ?? operation.responses.default;
  if (!documented) {
    mismatches.push({ path, method, status: response.status, pointer: "", message: "undocumented status" });
    return;
  }
  let responsePointer = `#/paths/${pointerSegment(path)}/${method}/responses/${response.status}`;
  if (documented.$ref) {
    responsePointer = documented.$ref.replace(/^#/, "#");
    documented = facts.components.responses[documented.$ref.split("/").pop()];
  }
  const mediaTypes = Object.keys(documented.content ?? {});
  if (mediaTypes.length === 0) {
    if (body !== undefined && body !== "")
      mismatches.push({
        path,
        method,
        status: response.status,
        pointer: "",
        message: "body where the reference has none",
      });
    return;
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!mediaTypes.includes(contentType)) {
    mismatches.push({ path, method, status: response.status, pointer: "", message: `content type ${contentType}` });
    return;
  }
  if (!documented.content[contentType].schema) return;
  const ref = `reference${responsePointer}/content/${pointerSegment(contentType)}/schema`;
  const validate = ajv.getSchema(ref) ?? (ajv.addSchema({ $ref: ref }, ref), ajv.getSchema(ref)!);
  if (validate(body)) return;
  for (const error of validate.errors ?? [])
    mismatches.push({
      path,
      method,
      status: response.status,
      pointer: error.instancePath,
      message: `${error.keyword}: ${error.message} ${JSON.stringify(error.params)}`,
    });
}

const ENV = {
  RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000",
  PARTNER_SIM_KYC_DECISION_MS: "0",
  SANDBOX_STEP_DELAY_MS: "50",
  RAMP_PROCESSOR_INTERVAL_MS: "20",
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "127.0.0.1/32",
  NODE_EXTRA_CA_CERTS: testCertificates().caFile,
  WEBHOOK_DELIVERY_POLL_MS: "50",
};

describe("a client generated from the reference document runs the integrator journey unchanged", () => {
  let server: ServerProcess;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startServerProcess({ env: ENV });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.dispose();
  });

  it("sign-in, credential, KYC, quote, register, webhook, start, COMPLETE, history, errors, limits, fiat accounts", async () => {
    const client = createClient<paths>({ baseUrl: server.url });

    // Sign-in: a code mailed, then verified.
    const email = `reference-${randomUUID().slice(0, 8)}@example.com`;
    const requested = await client.POST("/v1/auth/request-otp", { body: { email } });
    check("/v1/auth/request-otp", "post", requested.response, requested.data ?? requested.error);
    expect(requested.response.status).toBe(200);
    const token = await server.smtp.nextCode(email);
    const verified = await client.POST("/v1/auth/verify-otp", { body: { email, token } });
    check("/v1/auth/verify-otp", "post", verified.response, verified.data ?? verified.error);
    expect(verified.data?.access_token).toEqual(expect.any(String));
    rememberSecret(verified.data!.access_token);
    rememberSecret(verified.data!.refresh_token);
    const session = { Authorization: `Bearer ${verified.data!.access_token}` };

    // An API credential: the journey goes on with its secret key.
    const created = await client.POST("/v1/api-credentials", { headers: session, body: { name: "reference client" } });
    check("/v1/api-credentials", "post", created.response, created.data ?? created.error);
    expect(created.response.status).toBe(201);
    const secretKey = rememberSecret(created.data!.secretKey);
    const headers = { "X-API-Key": secretKey };

    // BR KYC to approved: a subaccount, its identity document and selfie uploaded, level 1, then its status.
    const taxId = randomCpf();
    const subaccount = await client.POST("/v1/brl/createSubaccount", {
      headers,
      body: { accountType: "INDIVIDUAL", name: LEVEL_ONE_KYC.fullName, taxId },
    });
    check("/v1/brl/createSubaccount", "post", subaccount.response, subaccount.data ?? subaccount.error);
    expect(subaccount.data?.subAccountId).toEqual(expect.any(String));
    const uploads = await client.POST("/v1/brl/getUploadUrls", { headers, body: { taxId, documentType: "ID" } });
    check("/v1/brl/getUploadUrls", "post", uploads.response, uploads.data ?? uploads.error);
    const { idUpload, selfieUpload } = uploads.data!;
    // Each file goes to its URL without a credential (the reference documents no such route: it is the URL's).
    for (const { uploadURLFront } of [idUpload, selfieUpload])
      expect((await uploadFile(httpSend(server), uploadURLFront)).status).toBe(204);
    const kyc = await client.POST("/v1/brl/newKyc", {
      headers,
      body: {
        ...LEVEL_ONE_KYC,
        subAccountId: subaccount.data!.subAccountId,
        taxIdNumber: taxId,
        uploadedDocumentId: idUpload.id,
        uploadedSelfieId: selfieUpload.id,
      },
    });
    check("/v1/brl/newKyc", "post", kyc.response, kyc.data ?? kyc.error);
    expect(kyc.response.ok, JSON.stringify(kyc.error)).toBe(true);
    const approved = await waitFor(
      async () => {
        const status = await client.GET("/v1/brl/getKycStatus", { headers, params: { query: { taxId } } });
        check("/v1/brl/getKycStatus", "get", status.response, status.data ?? status.error);
        return status.data;
      },
      (status) => status?.result !== undefined,
      "the BR KYC decision",
    );
    expect(approved).toMatchObject({ type: "KYC", result: "APPROVED" });

    // Quote and register.
    const quote = await client.POST("/v1/quotes", {
      headers,
      body: BUY_QUOTE,
    });
    check("/v1/quotes", "post", quote.response, quote.data ?? quote.error);
    expect(quote.response.status, JSON.stringify(quote.error)).toBe(201);
    const registered = await client.POST("/v1/ramp/register", {
      headers,
      body: {
        quoteId: quote.data!.id!,
        signingAccounts: [{ address: EVM_ADDRESS, type: "EVM" }],
        additionalData: { walletAddress: EVM_ADDRESS, destinationAddress: EVM_ADDRESS, moneriumAuthToken: "" },
      },
    });
    check("/v1/ramp/register", "post", registered.response, registered.data ?? registered.error);
    expect(registered.response.status, JSON.stringify(registered.error)).toBe(201);
    const rampId = registered.data!.id!;

    // A webhook for the ramp's quote, before it starts.
    const webhook = await client.POST("/v1/webhook", {
      headers,
      body: { url: receiver.url(), quoteId: quote.data!.id! },
    });
    check("/v1/webhook", "post", webhook.response, webhook.data ?? webhook.error);
    expect(webhook.response.ok, JSON.stringify(webhook.error)).toBe(true);

    // Start, then poll the status to COMPLETE.
    const started = await client.POST("/v1/ramp/start", { headers, body: { rampId } });
    check("/v1/ramp/start", "post", started.response, started.data ?? started.error);
    expect(started.response.status, JSON.stringify(started.error)).toBe(200);
    const done = await waitFor(
      async () => {
        const ramp = await client.GET("/v1/ramp/{id}", { headers, params: { path: { id: rampId } } });
        check("/v1/ramp/{id}", "get", ramp.response, ramp.data ?? ramp.error);
        return ramp.data;
      },
      (ramp) => ramp?.status !== "PENDING",
      "the ramp to finish",
    );
    expect(done).toMatchObject({ id: rampId, status: "COMPLETE" });
    await receiver.waitFor(1);

    // History.
    const history = await client.GET("/v1/ramp/history", { headers, params: { query: { limit: 20, offset: 0 } } });
    check("/v1/ramp/history", "get", history.response, history.data ?? history.error);
    expect(history.response.status).toBe(200);
    expect(history.data?.totalCount).toBe("1");
    const transactions = history.data!.transactions as unknown as unknown[];
    expect(transactions).toHaveLength(1);
    const validateItem = ajv.getSchema("reference#/components/schemas/GetRampHistoryTransaction")!;
    transactions.forEach((item, index) => {
      if (!validateItem(item))
        for (const error of validateItem.errors ?? [])
          mismatches.push({
            path: "/v1/ramp/history",
            method: "get",
            status: 200,
            pointer: `/transactions/${index}${error.instancePath}`,
            message: `${error.keyword}: ${error.message} ${JSON.stringify(error.params)}`,
          });
    });

    // Errors: an unknown ramp is not found, in our error envelope.
    const unknown = await client.GET("/v1/ramp/{id}", { headers, params: { path: { id: randomUUID() } } });
    check("/v1/ramp/{id}", "get", unknown.response, unknown.data ?? unknown.error);
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: "NOT_FOUND", message: expect.any(String), status: 404 } });
    const unknownErrors = await client.GET("/v1/ramp/{id}/errors", { headers, params: { path: { id: randomUUID() } } });
    check("/v1/ramp/{id}/errors", "get", unknownErrors.response, unknownErrors.data ?? unknownErrors.error);
    expect(unknownErrors.response.status).toBe(404);

    // Limits.
    const limits = await client.POST("/v1/limits", { headers, body: { corridors: ["BR"] } });
    check("/v1/limits", "post", limits.response, limits.data ?? limits.error);
    expect(limits.response.status, JSON.stringify(limits.error)).toBe(200);
    expect(limits.data?.limits.length).toBeGreaterThan(0);

    // Payout fiat accounts (issue 40, item 4): the reference's required fields alone are an account, and each listed
    // account has the accountType the reference requires (a SPEI account's number is a CLABE).
    const customer = await client.POST("/v1/domestic/createIndividualCustomer", { headers, body: { country: "MX" } });
    check("/v1/domestic/createIndividualCustomer", "post", customer.response, customer.data ?? customer.error);
    const account = await client.POST("/v1/domestic/fiatAccounts", {
      headers,
      body: { country: "MX", type: "SPEI", accountNumber: "032180000118359719" },
    });
    check("/v1/domestic/fiatAccounts", "post", account.response, account.data ?? account.error);
    expect(account.response.status, JSON.stringify(account.error)).toBe(200);
    const accounts = await client.GET("/v1/domestic/fiatAccounts", { headers, params: { query: { country: "MX" } } });
    check("/v1/domestic/fiatAccounts", "get", accounts.response, accounts.data ?? accounts.error);
    expect(accounts.data).toEqual([
      expect.objectContaining({ fiatAccountId: account.data!.fiatAccountId, type: "SPEI", accountType: "clabe" }),
    ]);

    // Every response matched the reference but for the listed differences, and every listed one was seen.
    const listed = DOCUMENTED_DIFFERENCES;
    const unexplained = mismatches
      .filter((mismatch) => !listed.some((difference) => matches(difference, mismatch)))
      .map(({ path, method, status, pointer, message }) => `${method} ${path} ${status} ${pointer}: ${message}`);
    expect([...new Set(unexplained)]).toEqual([]);
    for (const difference of listed)
      expect(
        mismatches.some((mismatch) => matches(difference, mismatch)),
        `listed difference no longer observed: ${JSON.stringify(difference)}`,
      ).toBe(true);
  });
});
