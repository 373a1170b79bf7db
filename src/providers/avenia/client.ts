import { createPrivateKey, type KeyObject } from "node:crypto";
import type { Logger } from "pino";
import type { z } from "zod";
import { PartnerTransport, type PartnerCall, type PartnerErrorDetail } from "../http/partner-http.js";
import type { BreakerOptions } from "../http/circuit-breaker.js";
import {
  accountInfoAnswer,
  attemptAnswer,
  attemptsAnswer,
  documentCreated,
  errorBody,
  fixedRateQuoteAnswer,
  idAnswer,
  importTokenAccepted,
  limitsAnswer,
  pixKeyHolderAnswer,
  publicKeyAnswer,
  subAccountCreated,
  ticketAnswer,
  ticketCreated,
  ticketsAnswer,
  webhookCreated,
  webhooksAnswer,
  webSdkStarted,
  type AveniaTicket,
} from "./schemas.js";
import type { CompanyKycLevel1, IndividualKycLevel1, UltimateBeneficialOwner } from "./requests.js";
import { signAveniaRequest } from "./signing.js";

export interface AveniaClientOptions {
  baseUrl: string;
  apiKey: string;
  /** The RSA private key (PEM) whose public half Avenia holds for this account. */
  privateKeyPem: string;
  logger: Logger;
  timeoutMs?: number;
  retryBaseDelayMs?: number;
  breaker?: BreakerOptions;
  now?: () => number;
}

/** Per-call options every method takes. */
interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

type Currency = "BRL" | "BRLA" | "USDC" | "USDCe" | "USDT" | "USDM";
type PaymentMethod = "PIX" | "INTERNAL" | "BASE" | "CELO" | "ETHEREUM" | "GNOSIS" | "MOONBEAM" | "POLYGON" | "TRON";

export type FixedRateQuoteQuery = {
  inputCurrency: Currency;
  inputPaymentMethod: PaymentMethod;
  outputCurrency: Currency;
  outputPaymentMethod: PaymentMethod;
  inputThirdParty: boolean;
  outputThirdParty: boolean;
  blockchainSendMethod?: "TRANSFER" | "PERMIT";
  subAccountId?: string;
} & ({ inputAmount: string; outputAmount?: never } | { outputAmount: string; inputAmount?: never });

export interface Permit {
  r: string;
  s: string;
  v: number;
  nonce: number;
  deadline: number;
}

export type TicketRequest =
  | {
      quoteToken: string;
      /** `additionalData` carries our reference, so a pay-in whose answer was lost can be found again. */
      ticketBrlPixInput: { additionalData: string };
      ticketBlockchainOutput: { walletChain: string; walletAddress: string } | { beneficiaryWalletId: string };
    }
  | { quoteToken: string; ticketBlockchainOutput: { walletAddress: string; walletChain: string } }
  | {
      quoteToken: string;
      ticketBrlPixOutput: { pixKey: string };
      ticketBlockchainInput: { walletAddress: string; permit?: Permit };
    };

export type AveniaDocumentType =
  | "ID"
  | "DRIVERS-LICENSE"
  | "PASSPORT"
  | "RESIDENCE-PERMIT"
  | "SELFIE"
  | "SELFIE-FROM-LIVENESS"
  | "CERTIFICATE-OF-INCORPORATION"
  | "COMPANY-TAX-IDENTIFICATION-DOCUMENT";

type Subscription = "*" | "KYC" | "LIMIT-UPDATE" | "TICKET";

/** Known refusals, reduced to codes safe for logs; Avenia's free text never reaches one. */
const KNOWN_ERRORS: ReadonlyArray<[fragment: string, code: string]> = [
  ["sub-account-id does not exist", "unknown-subaccount"],
  ["sub-account-id is invalid", "invalid-subaccount"],
  ["permit already used", "permit-already-used"],
];

function describeAveniaError(_status: number, body: string): PartnerErrorDetail {
  let message: string | undefined;
  try {
    message = errorBody.parse(JSON.parse(body)).error;
  } catch {
    return { code: null };
  }
  return { code: KNOWN_ERRORS.find(([fragment]) => message.includes(fragment))?.[1] ?? null };
}

/**
 * A subaccount's ticket list is one page of every ticket it ever had (no pagination known: partners-wire-facts
 * §1.3, §5.4), about 2 KB a ticket with its payer and PIX code: the transport's default bound would hold some 500,
 * this some 4,000. It is read only to find a ticket whose creation's answer was lost.
 */
const TICKET_LIST_MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** The one call Avenia takes without credentials: the PEM it signs callbacks with. */
const PUBLIC_KEY_CALL: PartnerCall = { method: "GET", route: "/v2/public-key", idempotent: true, anonymous: true };

/**
 * Avenia's callback key from its API, for a receiver that holds no API credentials (the callback routes need the
 * base URL alone): a transport of its own, so its pool and breaker hold none of the client's calls.
 */
export class AveniaPublicKeySource {
  private readonly transport: PartnerTransport;

  constructor(options: Pick<AveniaClientOptions, "baseUrl" | "logger" | "timeoutMs" | "retryBaseDelayMs" | "breaker">) {
    this.transport = new PartnerTransport({
      ...options,
      partner: "Avenia",
      describeError: describeAveniaError,
      // The call is anonymous: there is nothing to sign it with.
      authHeaders: () => ({}),
    });
  }

  async publicKey(options?: CallOptions): Promise<string> {
    return (await this.transport.request({ ...PUBLIC_KEY_CALL, ...options }, publicKeyAnswer)).publicKey;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** Avenia's API (BRL over PIX <-> BRLA), the spec's endpoint subset, every call but the public key signed. */
export class AveniaClient {
  private readonly transport: PartnerTransport;

  constructor(options: AveniaClientOptions) {
    const privateKey: KeyObject = createPrivateKey(options.privateKeyPem);
    const now = options.now ?? Date.now;
    this.transport = new PartnerTransport({
      partner: "Avenia",
      baseUrl: options.baseUrl,
      logger: options.logger,
      timeoutMs: options.timeoutMs,
      retryBaseDelayMs: options.retryBaseDelayMs,
      breaker: options.breaker,
      now,
      describeError: describeAveniaError,
      authHeaders: (request) => {
        const timestamp = String(now());
        return {
          "x-api-key": options.apiKey,
          "x-api-timestamp": timestamp,
          "x-api-signature": signAveniaRequest(privateKey, { timestamp, ...request }),
        };
      },
    });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  createSubAccount(body: { accountType: "INDIVIDUAL" | "COMPANY"; name: string }, options?: CallOptions) {
    return this.transport.request(
      { method: "POST", route: "/v2/account/sub-accounts", body, idempotent: false, ...options },
      subAccountCreated,
    );
  }

  accountInfo(subAccountId: string, options?: CallOptions) {
    return this.get("/v2/account/account-info", { subAccountId }, accountInfoAnswer, options);
  }

  /** Who holds a PIX key: their name, bank and masked tax id; a key Avenia cannot decode is refused (4xx). */
  pixKeyHolder(pixKey: string, options?: CallOptions) {
    return this.get(
      "/v2/account/bank-accounts/brl/pix-info",
      { pixKey, decodePixKey: "true" },
      pixKeyHolderAnswer,
      options,
    );
  }

  limits(subAccountId: string, options?: CallOptions) {
    return this.get("/v2/account/limits", { subAccountId }, limitsAnswer, options);
  }

  fixedRateQuote(query: FixedRateQuoteQuery, options?: CallOptions) {
    const { inputThirdParty, outputThirdParty, ...rest } = query;
    const wireQuery = { ...rest, inputThirdParty: String(inputThirdParty), outputThirdParty: String(outputThirdParty) };
    return this.get("/v2/account/quote/fixed-rate", wireQuery, fixedRateQuoteAnswer, options);
  }

  createTicket(subAccountId: string, body: TicketRequest, options?: CallOptions) {
    return this.transport.request(
      { method: "POST", route: "/v2/account/tickets", query: { subAccountId }, body, idempotent: false, ...options },
      ticketCreated,
    );
  }

  async ticket(subAccountId: string, ticketId: string, options?: CallOptions) {
    const call = { route: "/v2/account/tickets/{id}", pathParams: { id: ticketId } };
    return (await this.get(call, { subAccountId }, ticketAnswer, options)).ticket;
  }

  async tickets(subAccountId: string, options?: CallOptions) {
    const call = { route: "/v2/account/tickets", maxAnswerBytes: TICKET_LIST_MAX_ANSWER_BYTES };
    return (await this.get(call, { subAccountId }, ticketsAnswer, options)).tickets;
  }

  /** The pay-in ticket created with our reference (spec decision 3), or null: for a creation whose answer was lost. */
  async findPayInTicket(subAccountId: string, reference: string, options?: CallOptions): Promise<AveniaTicket | null> {
    const tickets = await this.tickets(subAccountId, options);
    return tickets.find((ticket) => ticket.brlPixInputInfo?.additionalData === reference) ?? null;
  }

  /** The payout ticket that spent this permit (spec decision 3), or null. EVM addresses compare case-blind. */
  async findPayoutTicket(
    subAccountId: string,
    walletAddress: string,
    permitNonce: number,
    options?: CallOptions,
  ): Promise<AveniaTicket | null> {
    const tickets = await this.tickets(subAccountId, options);
    const wallet = walletAddress.toLowerCase();
    return (
      tickets.find(
        (ticket) =>
          ticket.blockchainInputInfo?.nonce != null &&
          String(ticket.blockchainInputInfo.nonce) === String(permitNonce) &&
          ticket.blockchainSenderInfo?.walletAddress?.toLowerCase() === wallet,
      ) ?? null
    );
  }

  createDocument(
    subAccountId: string,
    body: { documentType: AveniaDocumentType; isDoubleSided?: boolean },
    options?: CallOptions,
  ) {
    return this.transport.request(
      { method: "POST", route: "/v2/documents", query: { subAccountId }, body, idempotent: false, ...options },
      documentCreated,
    );
  }

  createUbo(subAccountId: string, ubo: UltimateBeneficialOwner, options?: CallOptions) {
    return this.transport.request(
      { method: "POST", route: "/v2/account/ubos", query: { subAccountId }, body: ubo, idempotent: false, ...options },
      idAnswer,
    );
  }

  /** Submits an individual's KYC or a company's KYB, level 1; answers the attempt id. */
  submitKycLevel1(subAccountId: string, fields: IndividualKycLevel1 | CompanyKycLevel1, options?: CallOptions) {
    return this.transport.request(
      {
        method: "POST",
        route: "/v2/kyc/new-level-1/api",
        query: { subAccountId },
        body: fields,
        idempotent: false,
        ...options,
      },
      idAnswer,
    );
  }

  /**
   * Starts a level-1 attempt from a Sumsub share token the customer already holds; answers the attempt id. The token
   * travels in the body only, which the transport never logs. The trailing slash is part of Avenia's route.
   */
  importKycToken(subAccountId: string, importToken: string, options?: CallOptions) {
    return this.transport.request(
      {
        method: "POST",
        route: "/v2/kyc/import-token/",
        query: { subAccountId },
        body: { importToken },
        idempotent: false,
        ...options,
      },
      importTokenAccepted,
    );
  }

  /** Starts a company's hosted KYB; Avenia requires `redirectUrl` and ignores its value. */
  startKybWebSdk(subAccountId: string, options?: CallOptions) {
    return this.transport.request(
      {
        method: "POST",
        route: "/v2/kyc/new-level-1/web-sdk",
        query: { subAccountId },
        body: { redirectUrl: "" },
        idempotent: false,
        ...options,
      },
      webSdkStarted,
    );
  }

  async kycAttempt(subAccountId: string, attemptId: string, options?: CallOptions) {
    const call = { route: "/v2/kyc/attempts/{id}", pathParams: { id: attemptId } };
    return (await this.get(call, { subAccountId }, attemptAnswer, options)).attempt;
  }

  /** One page of attempts; a null, absent or empty cursor means it was the last. */
  kycAttempts(subAccountId: string, cursor?: string, options?: CallOptions) {
    return this.get("/v2/kyc/attempts", { subAccountId, cursor }, attemptsAnswer, options);
  }

  /** The PEM Avenia signs callbacks with: the one unsigned call. */
  async publicKey(options?: CallOptions): Promise<string> {
    return (await this.transport.request({ ...PUBLIC_KEY_CALL, ...options }, publicKeyAnswer)).publicKey;
  }

  createWebhook(body: { webhookUrl: string; subscriptions: Subscription[] }, options?: CallOptions) {
    return this.transport.request(
      { method: "POST", route: "/v2/notifications/webhooks", body, idempotent: false, ...options },
      webhookCreated,
    );
  }

  async webhooks(options?: CallOptions) {
    return (await this.get("/v2/notifications/webhooks", {}, webhooksAnswer, options)).webhooks;
  }

  /** Setting fields to given values: repeating it changes nothing more, so it may be retried. */
  updateWebhook(
    body: { webhookId: string; webhookUrl?: string; subscriptions?: Subscription[] },
    options?: CallOptions,
  ) {
    return this.transport.send({
      method: "PATCH",
      route: "/v2/notifications/webhooks",
      body,
      idempotent: true,
      ...options,
    });
  }

  deleteWebhook(webhookId: string, options?: CallOptions) {
    return this.transport.send({
      method: "DELETE",
      route: "/v2/notifications/webhooks/{id}",
      pathParams: { id: webhookId },
      idempotent: true,
      ...options,
    });
  }

  private get<T>(
    route: string | Pick<PartnerCall, "route" | "pathParams" | "maxAnswerBytes">,
    query: Record<string, string | undefined>,
    schema: z.ZodType<T>,
    options?: CallOptions,
  ): Promise<T> {
    const target = typeof route === "string" ? { route } : route;
    return this.transport.request({ method: "GET", ...target, query, idempotent: true, ...options }, schema);
  }
}
