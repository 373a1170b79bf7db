import type { Logger } from "pino";
import { FormData } from "undici";
import type { z } from "zod";
import type { BreakerOptions } from "../http/circuit-breaker.js";
import { PartnerError, PartnerTransport, type PartnerCall, type PartnerErrorDetail } from "../http/partner-http.js";
import type { FiatAccountFields, KybSubmission, KycSubmission } from "./requests.js";
import {
  customerCreated,
  customerFound,
  errorBody,
  fiatAccountCreated,
  fiatAccountsAnswer,
  kybDetails,
  offrampAnswer,
  onrampAnswer,
  onrampCreated,
  onrampWithInstructions,
  quoteAnswer,
  submissionCreated,
  verificationStatus,
  verificationUrl,
} from "./schemas.js";

export interface AlfredpayClientOptions {
  /** The partner's origin; the API's path prefix is part of every route. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  logger: Logger;
  timeoutMs?: number;
  retryBaseDelayMs?: number;
  breaker?: BreakerOptions;
}

interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

const API_PREFIX = "/api/v1/third-party-service/penny";
const TRADE_LIMIT_ERROR = "111426";
const QUOTE_ALREADY_USED = "111409";
const ALREADY_REGISTERED = "already-registered";
const CUSTOMER_TYPE_TAKEN = "customer-type-taken";

type Chain = "ETH" | "MATIC" | "XLM" | "OP" | "ARB" | "BASE" | "TRX" | "SOL" | "CELO" | "AVAX" | "BNB";
type Token = "USDC" | "USDT";
type CustomerType = "INDIVIDUAL" | "BUSINESS";

export type QuoteRequest = {
  fromCurrency: string;
  toCurrency: string;
  chain?: Chain;
  paymentMethodType: "BANK";
  metadata: Record<string, string>;
} & ({ fromAmount: string; toAmount?: never } | { toAmount: string; fromAmount?: never });

export interface OnrampRequest {
  customerId: string;
  quoteId: string;
  fromCurrency: string;
  toCurrency: Token;
  amount: string;
  chain: Chain;
  paymentMethodType: "BANK";
  depositAddress: string;
}

export interface OfframpRequest {
  customerId: string;
  quoteId: string;
  fromCurrency: Token;
  toCurrency: string;
  amount: string;
  chain: Chain;
  fiatAccountId: string;
  originAddress: string;
  memo?: string;
}

export interface FiatAccountRequest {
  customerId: string;
  type: "SPEI" | "PIX" | "COELSA" | "ACH" | "ACH_DOM" | "BANK_CN" | "BANK_USA" | "ACH_CHL" | "ACH_BOL" | "B89";
  fiatAccountFields: FiatAccountFields;
  isExternal: boolean;
}

/**
 * Reduces an error body to a log-safe code and, for refusals a caller can act on, our own message. A trade-limit
 * violation comes as 409 but is a deterministic refusal: nothing was created.
 */
function describeAlfredpayError(_status: number, body: string): PartnerErrorDetail {
  let parsed: z.infer<typeof errorBody>;
  try {
    parsed = errorBody.parse(JSON.parse(body));
  } catch {
    return { code: null };
  }
  const code = String(parsed.errorCode);
  if (code === TRADE_LIMIT_ERROR) {
    const limits = parsed.errorMetadata;
    const currency = limits?.fromCurrency ? ` ${limits.fromCurrency}` : "";
    const message =
      limits?.maxQuantity !== undefined
        ? `The amount is above the partner's maximum of ${limits.maxQuantity}${currency}.`
        : limits?.minQuantity !== undefined
          ? `The amount is below the partner's minimum of ${limits.minQuantity}${currency}.`
          : "The amount is outside the partner's limits.";
    return { code, kind: "rejected", message };
  }
  if (/already registered/i.test(parsed.errorMessage ?? "")) return { code: ALREADY_REGISTERED };
  if (code === QUOTE_ALREADY_USED) return { code, existingId: parsed.errorMetadata?.transactionId };
  return { code };
}

export type KycFileType = "National ID Front" | "National ID Back" | "Selfie";
export type RelatedPersonFileType = "docFront" | "docBack";

export interface SubmissionFile<FileType extends string> {
  fileType: FileType;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Alfredpay takes ASCII-only file names: accents are dropped to their letter, anything else outside it is "_". */
function asciiFileName(fileName: string): string {
  return fileName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
}

/** The order a "quote already used" refusal names, or null for any other failure. */
function orderOfUsedQuote(error: unknown): string | null {
  return error instanceof PartnerError && error.partnerCode === QUOTE_ALREADY_USED ? error.existingId : null;
}

/** Alfredpay's API (fiat rails in MX, CO, AR, US <-> USDC/USDT), the spec's endpoint subset. */
export class AlfredpayClient {
  private readonly transport: PartnerTransport;

  constructor(options: AlfredpayClientOptions) {
    const credentials = { "api-key": options.apiKey, "api-secret": options.apiSecret };
    this.transport = new PartnerTransport({
      partner: "Alfredpay",
      baseUrl: options.baseUrl,
      logger: options.logger,
      timeoutMs: options.timeoutMs,
      retryBaseDelayMs: options.retryBaseDelayMs,
      breaker: options.breaker,
      describeError: describeAlfredpayError,
      authHeaders: () => credentials,
    });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /**
   * Creates the customer, or finds the one that exists: Alfredpay takes no idempotency key, so a creation whose
   * answer was lost and is asked again meets "already registered", which `find` resolves. Alfredpay knows one
   * customer per email and country: one of the other type is not the one asked for, and is refused.
   */
  async createCustomer(
    body: { country: string; email: string; type: CustomerType },
    options?: CallOptions,
  ): Promise<{ customerId: string }> {
    try {
      return await this.post("/customers/create", {}, body, customerCreated, options);
    } catch (error) {
      const exists =
        error instanceof PartnerError && (error.partnerStatus === 409 || error.partnerCode === ALREADY_REGISTERED);
      if (!exists) throw error;
      const found = await this.findCustomer(body.email, body.country, options);
      if (found.type.toUpperCase() !== body.type)
        throw new PartnerError(
          "Alfredpay",
          "rejected",
          409,
          CUSTOMER_TYPE_TAKEN,
          `The partner knows this email as a customer of another type in ${body.country}: each type needs its own email.`,
        );
      return found;
    }
  }

  findCustomer(email: string, country: string, options?: CallOptions) {
    return this.get("/customers/find/{email}/{country}", { email, country }, customerFound, options);
  }

  submitKycForm(customerId: string, kycSubmission: KycSubmission, options?: CallOptions) {
    return this.post("/customers/{customerId}/kyc", { customerId }, { kycSubmission }, submissionCreated, options);
  }

  finishKycSubmission(customerId: string, submissionId: string, options?: CallOptions) {
    return this.transport.send({
      method: "POST",
      route: `${API_PREFIX}/customers/{customerId}/kyc/{submissionId}/submit`,
      pathParams: { customerId, submissionId },
      idempotent: false,
      ...options,
    });
  }

  /** Attaches an identity document or selfie to a KYC form before its submit. Sent once: an upload is not retried. */
  uploadKycFile(customerId: string, submissionId: string, file: SubmissionFile<KycFileType>, options?: CallOptions) {
    const route = "/customers/{customerId}/kyc/{submissionId}/files";
    return this.upload(route, { customerId, submissionId }, "fileBody", file, options);
  }

  kycStatus(customerId: string, submissionId: string, options?: CallOptions) {
    const route = "/customers/{customerId}/kyc/{submissionId}/status";
    return this.get(route, { customerId, submissionId }, verificationStatus, options);
  }

  /** The hosted KYC page (US customers; the country is sent as `USA` there). */
  kycUrl(customerId: string, country: string, options?: CallOptions) {
    return this.get("/customers/{customerId}/kyc/{country}/url", { customerId, country }, verificationUrl, options);
  }

  submitKybForm(customerId: string, kybSubmission: KybSubmission, options?: CallOptions) {
    return this.post("/customers/{customerId}/kyb", { customerId }, { kybSubmission }, submissionCreated, options);
  }

  /** Note the PUT: KYB's submit differs from KYC's POST. Sent once: it hands the file to review. */
  finishKybSubmission(customerId: string, submissionId: string, options?: CallOptions) {
    return this.transport.send({
      method: "PUT",
      route: `${API_PREFIX}/customers/{customerId}/kyb/{submissionId}/submit`,
      pathParams: { customerId, submissionId },
      idempotent: false,
      ...options,
    });
  }

  /** Attaches a company document (`fileType` as the country's KYB requirements name it) to a KYB form before its submit. */
  uploadKybFile(customerId: string, submissionId: string, file: SubmissionFile<string>, options?: CallOptions) {
    const route = "/customers/{customerId}/kyb/{submissionId}/files";
    return this.upload(route, { customerId, submissionId }, "rawBody", file, options);
  }

  /** Attaches a KYB related person's identity document, front or back. */
  uploadRelatedPersonFile(
    customerId: string,
    idRelatedPerson: string,
    file: SubmissionFile<RelatedPersonFileType>,
    options?: CallOptions,
  ) {
    const route = "/customers/{customerId}/kyb/{idRelatedPerson}/files/relate-person";
    return this.upload(route, { customerId, idRelatedPerson }, "rawBody", file, options);
  }

  kybStatus(customerId: string, submissionId: string, options?: CallOptions) {
    const route = "/customers/{customerId}/kyb/{submissionId}/status";
    return this.get(route, { customerId, submissionId }, verificationStatus, options);
  }

  /** The customer's KYB forms with their related persons' ids, which their document uploads name. */
  kybDetails(customerId: string, options?: CallOptions) {
    return this.get("/customers/{customerId}/kyb/details", { customerId }, kybDetails, options);
  }

  kybUrl(customerId: string, options?: CallOptions) {
    return this.get("/customers/kyb/{customerId}/verification/url", { customerId }, verificationUrl, options);
  }

  createQuote(body: QuoteRequest, options?: CallOptions) {
    return this.post("/quotes", {}, body, quoteAnswer, options);
  }

  quote(quoteId: string, options?: CallOptions) {
    return this.get("/quotes/{quoteId}", { quoteId }, quoteAnswer, options);
  }

  /**
   * Creates the onramp order, or answers the one its quote made. Alfredpay takes no idempotency key, but a quote is
   * single-use: a second order on it is refused 409 naming the first (spec decision 8), which is read back. So a
   * creation whose answer was lost is sent again safely, and the repeat is how the order is found.
   */
  async createOnramp(body: OnrampRequest, options?: CallOptions) {
    try {
      return await this.post("/onramp", {}, body, onrampCreated, options);
    } catch (error) {
      const existing = orderOfUsedQuote(error);
      if (existing === null) throw error;
      const { fiatPaymentInstructions, ...transaction } = await this.get(
        "/onramp/{transactionId}",
        { transactionId: existing },
        onrampWithInstructions,
        options,
      );
      return { transaction, fiatPaymentInstructions };
    }
  }

  onramp(transactionId: string, options?: CallOptions) {
    return this.get("/onramp/{transactionId}", { transactionId }, onrampAnswer, options);
  }

  /** Creates the offramp order, or answers the one its quote made (as createOnramp). */
  async createOfframp(body: OfframpRequest, options?: CallOptions) {
    try {
      return await this.post("/offramp", {}, body, offrampAnswer, options);
    } catch (error) {
      const existing = orderOfUsedQuote(error);
      if (existing === null) throw error;
      return this.offramp(existing, options);
    }
  }

  offramp(transactionId: string, options?: CallOptions) {
    return this.get("/offramp/{transactionId}", { transactionId }, offrampAnswer, options);
  }

  createFiatAccount(body: FiatAccountRequest, options?: CallOptions) {
    return this.post("/fiatAccounts", {}, body, fiatAccountCreated, options);
  }

  fiatAccounts(customerId: string, options?: CallOptions) {
    return this.transport.request(
      { method: "GET", route: `${API_PREFIX}/fiatAccounts`, query: { customerId }, idempotent: true, ...options },
      fiatAccountsAnswer,
    );
  }

  deleteFiatAccount(customerId: string, fiatAccountId: string, options?: CallOptions) {
    return this.transport.send({
      method: "DELETE",
      route: `${API_PREFIX}/fiatAccounts/{customerId}/{fiatAccountId}`,
      pathParams: { customerId, fiatAccountId },
      idempotent: true,
      ...options,
    });
  }

  /** A multipart upload; Alfredpay documents no answer, so none is read. */
  private upload(
    route: string,
    pathParams: Record<string, string>,
    fileField: "fileBody" | "rawBody",
    file: SubmissionFile<string>,
    options?: CallOptions,
  ) {
    const form = new FormData();
    form.append(fileField, new Blob([file.bytes], { type: file.contentType }), asciiFileName(file.fileName));
    form.append("fileType", file.fileType);
    return this.transport.send({
      method: "POST",
      route: `${API_PREFIX}${route}`,
      pathParams,
      form,
      idempotent: false,
      ...options,
    });
  }

  private get<T>(route: string, pathParams: PartnerCall["pathParams"], schema: z.ZodType<T>, options?: CallOptions) {
    return this.transport.request(
      { method: "GET", route: API_PREFIX + route, pathParams, idempotent: true, ...options },
      schema,
    );
  }

  private post<T>(
    route: string,
    pathParams: PartnerCall["pathParams"],
    body: unknown,
    schema: z.ZodType<T>,
    options?: CallOptions,
  ) {
    return this.transport.request(
      { method: "POST", route: API_PREFIX + route, pathParams, body, idempotent: false, ...options },
      schema,
    );
  }
}
