import { constants, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import {
  startPartnerSimulator,
  type PartnerSimulator,
  type Timing,
} from "../../../packages/partner-simulator/src/index.js";

export const AVENIA_KEY = "avenia-test-key";
export const ALFREDPAY = { apiKey: "alfred-key", apiSecret: "alfred-secret" };
export const CALLBACK_SECRET = `whsec_${Buffer.from("a callback secret of 32 bytes!!!").toString("base64")}`;
export const PENNY = "/api/v1/third-party-service/penny";
const FAST: Timing = {
  paymentDelayMs: 20,
  depositDelayMs: 20,
  stageDelayMs: 20,
  kycDecisionMs: 20,
  callbackRetryBaseMs: 20,
  quoteTtlMs: 60_000,
  orderLifetimeMs: 30 * 60_000,
};

export const clientKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientPublicKeyPem = clientKeys.publicKey.export({ type: "spki", format: "pem" }).toString();

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

/** A simulator stopped after the test. */
export async function simulator(
  options: { callbackUrl?: string; timing?: Partial<Timing>; stateFile?: string } = {},
): Promise<PartnerSimulator> {
  const started = await startPartnerSimulator({
    avenia: { apiKey: AVENIA_KEY, clientPublicKeyPem },
    alfredpay: {
      ...ALFREDPAY,
      callbackUrl: options.callbackUrl,
      callbackSecret: options.callbackUrl ? CALLBACK_SECRET : undefined,
    },
    timing: { ...FAST, ...options.timing },
    stateFile: options.stateFile,
  });
  running.push(started);
  return started;
}

export interface Answer {
  status: number;
  body: any;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** A signed Avenia call (spec decision 1). */
export async function avenia(
  base: string,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  tamper: { timestamp?: number; apiKey?: string; signedBody?: string } = {},
): Promise<Answer> {
  const rawBody = body === undefined ? "" : JSON.stringify(body);
  const timestamp = String(tamper.timestamp ?? Date.now());
  const signature = sign(
    "sha256",
    Buffer.from(timestamp + method + pathAndQuery + (tamper.signedBody ?? rawBody)),
    clientKeys.privateKey,
  );
  const response = await fetch(base + pathAndQuery, {
    method,
    headers: {
      "content-type": "application/json",
      "x-api-key": tamper.apiKey ?? AVENIA_KEY,
      "x-api-timestamp": timestamp,
      "x-api-signature": signature.toString("base64"),
    },
    body: body === undefined ? undefined : rawBody,
  });
  return answer(response);
}

export async function alfredpay(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  secret = ALFREDPAY.apiSecret,
): Promise<Answer> {
  const response = await fetch(base + PENNY + path, {
    method,
    headers: { "content-type": "application/json", "api-key": ALFREDPAY.apiKey, "api-secret": secret },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answer(response);
}

/** A multipart POST to Alfredpay (a file upload); fetch writes the boundary. */
export async function alfredpayForm(base: string, path: string, form: FormData): Promise<Answer> {
  const response = await fetch(base + PENNY + path, {
    method: "POST",
    headers: { "api-key": ALFREDPAY.apiKey, "api-secret": ALFREDPAY.apiSecret },
    body: form,
  });
  return answer(response);
}

export async function controlCall(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(base + path, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return answer(response);
}

export interface Received {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
}

/** A local receiver of callbacks; `statuses` lists the answers to give, in turn (then 200). */
export async function receiver(statuses: number[] = []): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const status = statuses.shift() ?? 200;
      if (status === 200) received.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  running.push({ stop: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

export function isAveniaWebhookSigned(received: Received, publicKeyPem: string): boolean {
  const key = {
    key: createPublicKey(publicKeyPem),
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_AUTO,
  };
  return verify(
    "sha256",
    Buffer.from(received.rawBody),
    key,
    Buffer.from(String(received.headers.signature), "base64"),
  );
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An Avenia subaccount, its EVM wallet and a registered webhook to `webhookUrl` when given. */
export async function aveniaSubAccount(base: string, name = "Maria Silva") {
  const created = await avenia(base, "POST", "/v2/account/sub-accounts", { accountType: "INDIVIDUAL", name });
  const id = created.body.id as string;
  const info = await avenia(base, "GET", `/v2/account/account-info?subAccountId=${id}`);
  return { id, walletAddress: info.body.wallets[0].walletAddress as string };
}

async function aveniaQuote(base: string, subAccountId: string, params: Record<string, string>) {
  const query = new URLSearchParams({ inputThirdParty: "false", outputThirdParty: "false", ...params, subAccountId });
  const quote = await avenia(base, "GET", `/v2/account/quote/fixed-rate?${query}`);
  return quote.body.quoteToken as string;
}

export async function aveniaPayin(base: string, subAccountId: string, inputAmount: string, additionalData: string) {
  return aveniaPayinTicket(base, subAccountId, await aveniaPayinQuote(base, subAccountId, inputAmount), additionalData);
}

export function aveniaPayinQuote(base: string, subAccountId: string, inputAmount: string) {
  return aveniaQuote(base, subAccountId, {
    inputAmount,
    inputCurrency: "BRL",
    inputPaymentMethod: "PIX",
    outputCurrency: "BRLA",
    outputPaymentMethod: "INTERNAL",
  });
}

/** Only the ticket call: a fault set before it meets this call, not the quote's. */
export function aveniaPayinTicket(base: string, subAccountId: string, quoteToken: string, additionalData: string) {
  return avenia(base, "POST", `/v2/account/tickets?subAccountId=${subAccountId}`, {
    quoteToken,
    ticketBrlPixInput: { additionalData },
    ticketBlockchainOutput: { beneficiaryWalletId: "00000000-0000-0000-0000-000000000000" },
  });
}

export async function aveniaPayout(
  base: string,
  subAccountId: string,
  walletAddress: string,
  outputAmount: string,
  nonce: number,
) {
  const quoteToken = await aveniaQuote(base, subAccountId, {
    blockchainSendMethod: "PERMIT",
    inputCurrency: "BRLA",
    inputPaymentMethod: "INTERNAL",
    outputAmount,
    outputCurrency: "BRL",
    outputPaymentMethod: "PIX",
  });
  return avenia(base, "POST", `/v2/account/tickets?subAccountId=${subAccountId}`, {
    quoteToken,
    ticketBrlPixOutput: { pixKey: "maria@example.com" },
    ticketBlockchainInput: { walletAddress, permit: { r: "0x01", s: "0x02", v: 27, nonce, deadline: 1_900_000_000 } },
  });
}

/** A verified Alfredpay customer (ramps require one). */
export async function alfredpayCustomer(base: string, email = "ana@example.com", country = "MX") {
  const created = await alfredpay(base, "POST", "/customers/create", { email, country, type: "INDIVIDUAL" });
  const customerId = created.body.customerId as string;
  const form = { kycSubmission: { firstName: "Ana", lastName: "Lopez", dateOfBirth: "1990-01-01", country } };
  const { body } = await alfredpay(base, "POST", `/customers/${customerId}/kyc`, form);
  await alfredpay(base, "POST", `/customers/${customerId}/kyc/${body.submissionId}/submit`);
  await waitFor(async () => {
    const status = await alfredpay(base, "GET", `/customers/${customerId}/kyc/${body.submissionId}/status`);
    return status.body.status === "COMPLETED";
  });
  return { customerId, submissionId: body.submissionId as string };
}
