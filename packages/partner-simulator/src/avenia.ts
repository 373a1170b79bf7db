import { createHash, randomUUID, type KeyObject } from "node:crypto";
import { EXPIRED_QUOTE_MEMORY_MS, type PartnerContext } from "./context.js";
import {
  objectBody,
  ok,
  optionalString,
  PartnerError,
  requiredString,
  type Partner,
  type PartnerRequest,
  type Route,
} from "./http.js";
import { emailRejects, formatAmount, hasFraction, nameRejects, parseAmount } from "./money.js";
import { pixBrCode } from "./pix.js";
import { isAveniaRequestSigned, signAveniaWebhook } from "./signing.js";
import { countIn } from "./stats.js";

/** Avenia names an imported attempt's level with this prefix only; the suffix is ours. */
const SUMSUB_TOKEN_LEVEL = "sumsub-token-level-1";

/** Credits the subaccount's own internal balance instead of a chain wallet. */
const OWN_BALANCE_WALLET_ID = "00000000-0000-0000-0000-000000000000";
const MARKUP_FEE_RATE = 0.005;
const CURRENCIES = ["BRL", "BRLA", "USDC", "USDCe", "USDT", "USDM"];
const PAYMENT_METHODS = ["PIX", "INTERNAL", "BASE", "CELO", "ETHEREUM", "GNOSIS", "MOONBEAM", "POLYGON", "TRON"];
const DOCUMENT_TYPES = [
  "ID",
  "DRIVERS-LICENSE",
  "PASSPORT",
  "RESIDENCE-PERMIT",
  "SELFIE",
  "SELFIE-FROM-LIVENESS",
  "CERTIFICATE-OF-INCORPORATION",
  "COMPANY-TAX-IDENTIFICATION-DOCUMENT",
];
const WEBHOOK_SUBSCRIPTIONS = ["*", "KYC", "LIMIT-UPDATE", "TICKET"];
const MAX_WEBHOOKS = 3;
const BRL_LIMIT = "50000.00";
const USD_LIMIT = "10000.00";

export interface AveniaOptions {
  apiKey: string;
  clientPublicKey: KeyObject;
  simulatorPrivateKey: KeyObject;
  simulatorPublicKeyPem: string;
}

interface SubAccount {
  id: string;
  accountType: "INDIVIDUAL" | "COMPANY";
  name: string;
  walletAddress: string;
  brCode: string;
  identityStatus: "NOT-IDENTIFIED" | "CONFIRMED";
  createdAt: string;
}

interface Quote {
  quoteToken: string;
  inputCurrency: string;
  inputPaymentMethod: string;
  inputAmount: string;
  outputCurrency: string;
  outputPaymentMethod: string;
  outputAmount: string;
  appliedFees: { type: string; amount: string; currency: string; rebatable: boolean }[];
  basePrice: string;
  expiresAt: number;
  /** The amount the client asked the quote for (input or output): the sandbox triggers read it. */
  requestedAmount: string;
}

type TicketStatus = "UNPAID" | "PENDING" | "PROCESSING" | "PAID" | "FAILED";

interface Ticket {
  id: string;
  subAccountId: string;
  kind: "payin" | "payout" | "transfer";
  status: TicketStatus;
  failureReason: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  quote: Quote;
  walletAddress: string;
  walletChain: string;
  additionalData?: string;
  brCode?: string;
  permit?: { r: string; s: string; v: number; nonce: number; deadline: number };
  pixKey?: string;
  txHash?: string;
  endToEndId?: string;
}

interface Attempt {
  id: string;
  subAccountId: string;
  levelName: string;
  status: "PENDING" | "PROCESSING" | "COMPLETED";
  result: "" | "APPROVED" | "REJECTED";
  resultMessage: string | null;
  retryable: boolean | null;
  createdAt: string;
  updatedAt: string;
  /** Set when the review starts: the decision it ends in (the triggers are read from the submission then). */
  rejects?: boolean;
}

interface Document {
  id: string;
  documentType: string;
  sides: { front: boolean; back?: boolean };
  createdAt: string;
}

interface Webhook {
  id: string;
  url: string;
  subscriptions: string[];
}

/** What a snapshot of the simulated Avenia holds. */
export interface AveniaState {
  subAccounts: SubAccount[];
  quotes: Quote[];
  tickets: Ticket[];
  attempts: Attempt[];
  documents: Document[];
  uboNames: [string, string][];
  transientFaultsServed: string[];
}

/** Avenia's `/v2` API (spec, endpoint subset; shapes from the facts §1.3). */
export class Avenia {
  private subAccounts = new Map<string, SubAccount>();
  private quotes = new Map<string, Quote>();
  private tickets = new Map<string, Ticket>();
  private attempts = new Map<string, Attempt>();
  private documents = new Map<string, Document>();
  private uboNames = new Map<string, string>();
  private webhooks = new Map<string, Webhook>();
  /** Money-step identities whose `.77` transient fault has been served. */
  private transientFaultsServed = new Set<string>();

  readonly partner: Partner;

  constructor(
    private readonly context: PartnerContext,
    private readonly options: AveniaOptions,
  ) {
    this.partner = {
      pathPrefix: "/v2/",
      routes: this.routes(),
      isAuthenticated: (request) => this.isAuthenticated(request),
      errorBody: (error) => ({ error: error.message }),
    };
  }

  reset(): void {
    for (const map of [
      this.subAccounts,
      this.quotes,
      this.tickets,
      this.attempts,
      this.documents,
      this.uboNames,
      this.webhooks,
    ])
      map.clear();
    this.transientFaultsServed.clear();
  }

  /**
   * What the partner holds, as JSON can keep it (src/state.ts). Webhook registrations are left out: a caller
   * registers its address when it starts (the gateway does), and a kept one would name an address long gone.
   */
  snapshot(): AveniaState {
    return {
      subAccounts: [...this.subAccounts.values()],
      quotes: [...this.quotes.values()],
      tickets: [...this.tickets.values()],
      attempts: [...this.attempts.values()],
      documents: [...this.documents.values()],
      uboNames: [...this.uboNames],
      transientFaultsServed: [...this.transientFaultsServed],
    };
  }

  /** Takes back what a snapshot held, and moves on what was under way then, each step its full delay from now. */
  restore(state: AveniaState): void {
    const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((item) => [item.id, item]));
    this.subAccounts = byId(state.subAccounts);
    this.quotes = new Map(state.quotes.map((quote) => [quote.quoteToken, quote]));
    this.tickets = byId(state.tickets);
    this.attempts = byId(state.attempts);
    this.documents = byId(state.documents);
    this.uboNames = new Map(state.uboNames);
    this.transientFaultsServed = new Set(state.transientFaultsServed);
    for (const ticket of this.tickets.values()) this.advanceTicket(ticket);
    for (const attempt of this.attempts.values()) this.advanceAttempt(attempt);
  }

  /** The payer pays an UNPAID pay-in ticket now; false when there is none. */
  payTicket(ticketId: string): boolean {
    const ticket = this.tickets.get(ticketId);
    if (!ticket || ticket.kind !== "payin" || ticket.status !== "UNPAID") return false;
    // A BR Code past its expiry takes no payment.
    if (Date.parse(ticket.expiresAt) <= Date.now()) return false;
    this.move(ticket, "PROCESSING");
    this.advanceTicket(ticket);
    return true;
  }

  /**
   * Schedules a ticket's next move on the partner's clock: a pay-in's payment, a payout's pull (its deposit), the
   * exchange that settles either. A settled ticket has none.
   */
  private advanceTicket(ticket: Ticket): void {
    const { scheduler, timing } = this.context;
    if (ticket.status === "PROCESSING") scheduler.after(timing.stageDelayMs, () => this.settle(ticket));
    else if (ticket.kind === "payin" && ticket.status === "UNPAID")
      scheduler.after(timing.paymentDelayMs, () => this.payTicket(ticket.id));
    else if (ticket.kind === "payout" && ticket.status === "PENDING")
      scheduler.after(timing.depositDelayMs, () => {
        if (ticket.status !== "PENDING") return;
        this.move(ticket, "PROCESSING");
        this.advanceTicket(ticket);
      });
  }

  private routes(): Route[] {
    const route = (method: string, template: string, handle: Route["handle"], open = false): Route => ({
      method,
      template,
      handle,
      open,
    });
    return [
      route("GET", "/v2/public-key", () => ok({ publicKey: this.options.simulatorPublicKeyPem }), true),
      route("PUT", "/_uploads/avenia/{documentId}/{side}", (request) => this.upload(request), true),
      route("POST", "/v2/account/sub-accounts", (request) => ok(this.createSubAccount(request))),
      route("GET", "/v2/account/account-info", (request) => ok(this.accountInfo(this.subAccount(request)))),
      route("GET", "/v2/account/limits", (request) => ok(this.limits(this.subAccount(request)))),
      route("GET", "/v2/account/bank-accounts/brl/pix-info", (request) => ok(pixKeyHolder(request))),
      route("GET", "/v2/account/quote/fixed-rate", (request) => ok(this.quote(request))),
      route("POST", "/v2/account/tickets", (request) => ok(this.createTicket(request))),
      route("GET", "/v2/account/tickets/{id}", (request) => ok({ ticket: ticketView(this.ticket(request)) })),
      route("GET", "/v2/account/tickets", (request) => ok({ tickets: this.ticketsOf(this.subAccount(request)) })),
      route("POST", "/v2/documents", (request) => ok(this.createDocument(request))),
      route("POST", "/v2/account/ubos", (request) => ok(this.createUbo(request))),
      route("POST", "/v2/kyc/new-level-1/api", (request) => ok(this.submitKyc(request))),
      route("POST", "/v2/kyc/new-level-1/web-sdk", (request) => ok(this.startHostedKyb(request))),
      route("POST", "/v2/kyc/import-token/", (request) => ok(this.importToken(request))),
      route("GET", "/v2/kyc/attempts/{id}", (request) => ok({ attempt: attemptView(this.attempt(request)) })),
      route("GET", "/v2/kyc/attempts", (request) => ok(this.attemptsOf(this.subAccount(request)))),
      route("POST", "/v2/notifications/webhooks", (request) => ok(this.registerWebhook(request))),
      route("GET", "/v2/notifications/webhooks", () => ok({ webhooks: [...this.webhooks.values()] })),
      route("PATCH", "/v2/notifications/webhooks", (request) => this.updateWebhook(request)),
      route("DELETE", "/v2/notifications/webhooks/{id}", (request) => this.deleteWebhook(request)),
    ];
  }

  private isAuthenticated(request: PartnerRequest): boolean {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === "string" ? value : undefined;
    };
    if (header("x-api-key") !== this.options.apiKey) return false;
    const signed = {
      timestamp: header("x-api-timestamp"),
      signature: header("x-api-signature"),
      method: request.method,
      pathAndQuery: request.url,
      rawBody: request.rawBody,
    };
    return isAveniaRequestSigned(signed, this.options.clientPublicKey, Date.now());
  }

  private subAccount(request: PartnerRequest): SubAccount {
    const id = request.query.get("subAccountId");
    if (!id) throw new PartnerError(400, "subAccountId is required");
    const subAccount = this.subAccounts.get(id);
    if (!subAccount) throw new PartnerError(404, "sub-account-id does not exist");
    return subAccount;
  }

  private createSubAccount(request: PartnerRequest) {
    const body = objectBody(request);
    const accountType = body.accountType;
    if (accountType !== "INDIVIDUAL" && accountType !== "COMPANY")
      throw new PartnerError(400, "accountType must be INDIVIDUAL or COMPANY");
    const id = randomUUID();
    const walletAddress = `0x${createHash("sha256").update(id).digest("hex").slice(0, 40)}`;
    const brCode = pixBrCode({ pixKey: id, reference: "***" });
    const subAccount: SubAccount = {
      id,
      accountType,
      name: requiredString(body, "name"),
      walletAddress,
      brCode,
      identityStatus: "NOT-IDENTIFIED",
      createdAt: isoNow(),
    };
    this.subAccounts.set(id, subAccount);
    return { id };
  }

  private accountInfo(subAccount: SubAccount) {
    const { id, accountType, name, identityStatus, walletAddress, brCode, createdAt } = subAccount;
    return {
      id,
      accountInfo: {
        id,
        accountType,
        name,
        fullName: name,
        birthdate: "",
        taxId: "",
        countryTaxResidence: "BRA",
        countrySubdivisionTaxResidence: "",
        identityStatus,
      },
      wallets: [{ id: `${id}-evm`, chain: "EVM", walletAddress }],
      pixKey: `${id}@pix.simulator`,
      brCode,
      createdAt,
    };
  }

  private limits(subAccount: SubAccount) {
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const thisMonth = (ticket: Ticket) => ticket.status === "PAID" && ticket.updatedAt.startsWith(month);
    const paid = this.ticketsFor(subAccount.id).filter(thisMonth);
    const sum = (kind: Ticket["kind"], side: "inputAmount" | "outputAmount") =>
      paid.filter((ticket) => ticket.kind === kind).reduce((total, ticket) => total + Number(ticket.quote[side]), 0);
    const usedFiatIn = sum("payin", "inputAmount");
    const usedFiatOut = sum("payout", "outputAmount");
    const row = (currency: string, max: string, scale: number) => ({
      currency,
      maxFiatIn: max,
      maxFiatOut: max,
      maxChainIn: max,
      maxChainOut: max,
      usedLimit: {
        year: now.getUTCFullYear(),
        month: now.getUTCMonth() + 1,
        usedFiatIn: formatAmount(usedFiatIn / scale),
        usedFiatOut: formatAmount(usedFiatOut / scale),
        usedChainIn: "0.00",
        usedChainOut: "0.00",
      },
    });
    // No BRL row until KYC level 1 passed: that is how a client tells the account is not identified.
    const limits = [row("*", USD_LIMIT, this.brlPerUsd())];
    if (subAccount.identityStatus === "CONFIRMED") limits.unshift(row("BRL", BRL_LIMIT, 1));
    return { limitInfo: { blocked: false, createdAt: subAccount.createdAt, limits } };
  }

  private quote(request: PartnerRequest): Omit<Quote, "expiresAt" | "requestedAmount"> {
    const param = (name: string, allowed: string[]) => {
      const value = request.query.get(name);
      if (!value || !allowed.includes(value))
        throw new PartnerError(400, `${name} must be one of ${allowed.join(", ")}`);
      return value;
    };
    const inputCurrency = param("inputCurrency", CURRENCIES);
    const inputPaymentMethod = param("inputPaymentMethod", PAYMENT_METHODS);
    const outputCurrency = param("outputCurrency", CURRENCIES);
    const outputPaymentMethod = param("outputPaymentMethod", PAYMENT_METHODS);
    const subAccountId = request.query.get("subAccountId");
    if (subAccountId) this.subAccount(request);
    const rate = this.conversionRate(inputCurrency, outputCurrency);
    const givenInput = parseAmount(request.query.get("inputAmount"));
    const givenOutput = parseAmount(request.query.get("outputAmount"));
    if ((givenInput === undefined) === (givenOutput === undefined))
      throw new PartnerError(400, "exactly one of inputAmount and outputAmount is required");
    const input = givenInput ?? (givenOutput as number) / rate / (1 - MARKUP_FEE_RATE);
    const fee = input * MARKUP_FEE_RATE;
    const quote: Quote = {
      quoteToken: randomUUID(),
      inputCurrency,
      inputPaymentMethod,
      inputAmount: formatAmount(input),
      outputCurrency,
      outputPaymentMethod,
      outputAmount: formatAmount(givenOutput ?? (input - fee) * rate),
      appliedFees: [{ type: "Markup Fee", amount: formatAmount(fee), currency: inputCurrency, rebatable: false }],
      basePrice: String(rate),
      expiresAt: Date.now() + this.context.timing.quoteTtlMs,
      requestedAmount: request.query.get("inputAmount") ?? request.query.get("outputAmount") ?? "",
    };
    this.forgetStaleQuotes();
    this.quotes.set(quote.quoteToken, quote);
    const { expiresAt: _expiresAt, requestedAmount: _requestedAmount, ...view } = quote;
    return view;
  }

  private brlPerUsd(): number {
    return this.context.fiatPerUsd.get("BRL")!;
  }

  /** BRL and BRLA are worth the same, and so are the USD stablecoins. */
  private conversionRate(from: string, to: string): number {
    const isBrl = (currency: string) => currency === "BRL" || currency === "BRLA";
    if (isBrl(from) === isBrl(to)) return 1;
    return isBrl(from) ? 1 / this.brlPerUsd() : this.brlPerUsd();
  }

  /** A ticket keeps its own quote: the quotes an hour past expiry are no longer needed. */
  private forgetStaleQuotes(): void {
    const cutoff = Date.now() - EXPIRED_QUOTE_MEMORY_MS;
    for (const [token, quote] of this.quotes) if (quote.expiresAt < cutoff) this.quotes.delete(token);
  }

  private createTicket(request: PartnerRequest) {
    const subAccount = this.subAccount(request);
    const body = objectBody(request);
    const quote = this.quotes.get(requiredString(body, "quoteToken"));
    if (!quote) throw new PartnerError(400, "quoteToken is invalid");
    if (quote.expiresAt < Date.now()) throw new PartnerError(400, "quoteToken has expired");
    if (isObject(body.ticketBrlPixOutput)) return this.createPayout(subAccount, quote, body);
    if (quote.inputPaymentMethod === "PIX") return this.createPayin(subAccount, quote, body);
    return this.createTransfer(subAccount, quote, body);
  }

  private createPayin(subAccount: SubAccount, quote: Quote, body: Record<string, unknown>) {
    const additionalData = isObject(body.ticketBrlPixInput)
      ? optionalString(body.ticketBrlPixInput, "additionalData")
      : undefined;
    if (additionalData !== undefined && additionalData.length > 64)
      throw new PartnerError(400, "additionalData is longer than 64 characters");
    const output = body.ticketBlockchainOutput;
    if (!isObject(output)) throw new PartnerError(400, "ticketBlockchainOutput is required");
    const ownBalance = output.beneficiaryWalletId === OWN_BALANCE_WALLET_ID;
    const walletAddress = ownBalance ? subAccount.walletAddress : requiredString(output, "walletAddress");
    const walletChain = ownBalance ? "INTERNAL" : requiredString(output, "walletChain");
    const usedBefore = this.ticketsFor(subAccount.id).some((ticket) => ticket.additionalData === additionalData);
    if (additionalData !== undefined && usedBefore)
      this.refuseDuplicate(`payin:${additionalData}`, "additionalData already used");
    const ticket = this.addTicket(subAccount, quote, "payin", "UNPAID", { walletAddress, walletChain, additionalData });
    ticket.brCode = pixBrCode({
      pixKey: subAccount.id,
      amount: quote.inputAmount,
      reference: additionalData ?? ticket.id.replace(/-/g, ""),
    });
    ticket.expiresAt = new Date(Date.now() + this.context.timing.orderLifetimeMs).toISOString();
    countIn(this.context.stats().moneySteps, `payin:${additionalData ?? ticket.id}`);
    this.advanceTicket(ticket);
    return { id: ticket.id, brCode: ticket.brCode, expiration: ticket.expiresAt };
  }

  private createPayout(subAccount: SubAccount, quote: Quote, body: Record<string, unknown>) {
    const pixKey = requiredString(body.ticketBrlPixOutput as Record<string, unknown>, "pixKey");
    const input = body.ticketBlockchainInput;
    if (!isObject(input) || !isObject(input.permit))
      throw new PartnerError(400, "ticketBlockchainInput.permit is required");
    const walletAddress = requiredString(input, "walletAddress");
    const { r, s, v, nonce, deadline } = input.permit;
    if (typeof r !== "string" || typeof s !== "string" || ![v, nonce, deadline].every(Number.isInteger))
      throw new PartnerError(400, "permit must be { r, s, v, nonce, deadline }");
    const permit = { r, s, v: v as number, nonce: nonce as number, deadline: deadline as number };
    const identity = `payout:${walletAddress.toLowerCase()}:${permit.nonce}`;
    if (hasFraction(quote.requestedAmount, "77") && !this.transientFaultsServed.has(identity)) {
      this.transientFaultsServed.add(identity);
      throw new PartnerError(503, "payout temporarily unavailable");
    }
    const used = [...this.tickets.values()].some(
      (ticket) =>
        ticket.permit?.nonce === permit.nonce && ticket.walletAddress.toLowerCase() === walletAddress.toLowerCase(),
    );
    if (used) this.refuseDuplicate(identity, "permit already used");
    const ticket = this.addTicket(subAccount, quote, "payout", "PENDING", {
      walletAddress,
      walletChain: "BASE",
      permit,
      pixKey,
    });
    countIn(this.context.stats().moneySteps, identity);
    // The permit pull is the payout's deposit: it arrives depositDelayMs after the ticket.
    this.advanceTicket(ticket);
    return { id: ticket.id };
  }

  private createTransfer(subAccount: SubAccount, quote: Quote, body: Record<string, unknown>) {
    const output = body.ticketBlockchainOutput;
    if (!isObject(output)) throw new PartnerError(400, "ticketBlockchainOutput is required");
    const walletAddress = requiredString(output, "walletAddress");
    const walletChain = requiredString(output, "walletChain");
    const ticket = this.addTicket(subAccount, quote, "transfer", "PROCESSING", { walletAddress, walletChain });
    countIn(this.context.stats().moneySteps, `transfer:${ticket.id}`);
    this.advanceTicket(ticket);
    return { id: ticket.id };
  }

  private refuseDuplicate(identity: string, message: string): never {
    countIn(this.context.stats().duplicateMoneySteps, identity);
    throw new PartnerError(409, message);
  }

  private addTicket(
    subAccount: SubAccount,
    quote: Quote,
    kind: Ticket["kind"],
    status: TicketStatus,
    details: Pick<Ticket, "walletAddress" | "walletChain" | "additionalData" | "permit" | "pixKey">,
  ): Ticket {
    const now = isoNow();
    const ticket: Ticket = {
      id: randomUUID(),
      subAccountId: subAccount.id,
      kind,
      status,
      failureReason: "",
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(quote.expiresAt).toISOString(),
      quote,
      ...details,
    };
    this.tickets.set(ticket.id, ticket);
    return ticket;
  }

  /** The exchange stage: `.66` fails there (spec, triggers). */
  private settle(ticket: Ticket): void {
    if (ticket.status !== "PROCESSING") return;
    if (hasFraction(ticket.quote.requestedAmount, "66")) {
      ticket.failureReason = "Exchange refused";
      this.move(ticket, "FAILED");
      return;
    }
    if (ticket.kind === "payout") ticket.endToEndId = `E${randomUUID().replace(/-/g, "").slice(0, 31)}`;
    else ticket.txHash = `0x${createHash("sha256").update(ticket.id).digest("hex")}`;
    this.move(ticket, "PAID");
  }

  private move(ticket: Ticket, status: TicketStatus): void {
    ticket.status = status;
    ticket.updatedAt = isoNow();
    this.notify("TICKET", ticket.subAccountId, { ticket: ticketView(ticket) });
  }

  private ticket(request: PartnerRequest): Ticket {
    const subAccount = this.subAccount(request);
    const ticket = this.tickets.get(request.params.id ?? "");
    if (!ticket || ticket.subAccountId !== subAccount.id) throw new PartnerError(404, "ticket does not exist");
    return ticket;
  }

  private ticketsFor(subAccountId: string): Ticket[] {
    return [...this.tickets.values()].filter((ticket) => ticket.subAccountId === subAccountId);
  }

  private ticketsOf(subAccount: SubAccount) {
    return this.ticketsFor(subAccount.id).map(ticketView);
  }

  private createDocument(request: PartnerRequest) {
    this.subAccount(request);
    const body = objectBody(request);
    const documentType = requiredString(body, "documentType");
    if (!DOCUMENT_TYPES.includes(documentType)) throw new PartnerError(400, "documentType is invalid");
    const id = randomUUID();
    const base = this.context.baseUrl();
    if (documentType === "SELFIE-FROM-LIVENESS") {
      this.documents.set(id, { id, documentType, sides: { front: true }, createdAt: isoNow() });
      return {
        id,
        livenessUrl: `${base}/_hosted/avenia/liveness/${id}`,
        validateLivenessToken: randomUUID(),
        sessionId: randomUUID(),
      };
    }
    const doubleSided = body.isDoubleSided === true;
    this.documents.set(id, {
      id,
      documentType,
      sides: doubleSided ? { front: false, back: false } : { front: false },
      createdAt: isoNow(),
    });
    const uploadURLFront = `${base}/_uploads/avenia/${id}/front`;
    return doubleSided
      ? { id, uploadURLFront, uploadURLBack: `${base}/_uploads/avenia/${id}/back` }
      : { id, uploadURLFront };
  }

  private upload(request: PartnerRequest) {
    const document = this.documents.get(request.params.documentId ?? "");
    const side = request.params.side;
    if (!document || (side !== "front" && side !== "back") || document.sides[side] === undefined)
      throw new PartnerError(404, "no such upload URL");
    if (request.rawBody.length === 0) throw new PartnerError(400, "empty upload");
    document.sides[side] = true;
    return ok();
  }

  private createUbo(request: PartnerRequest) {
    this.subAccount(request);
    const body = objectBody(request);
    const id = randomUUID();
    this.uboNames.set(id, requiredString(body, "fullName"));
    return { id };
  }

  private submitKyc(request: PartnerRequest) {
    const subAccount = this.subAccount(request);
    const body = objectBody(request);
    const company = typeof body.companyLegalName === "string";
    if (!company) requiredString(body, "fullName");
    const uboIds = Array.isArray(body.uboIds) ? body.uboIds : [];
    const uboNames = uboIds.map((id) => this.uboNames.get(String(id)));
    if (uboNames.includes(undefined)) throw new PartnerError(400, "uboIds names an unknown UBO");
    const rejected =
      nameRejects(body.fullName, body.companyLegalName, ...uboNames) ||
      body.sandboxReject === true ||
      emailRejects(body.email);
    const attempt = this.addAttempt(subAccount, company ? "kyb-level-1-v2" : "level-1");
    this.review(attempt, rejected);
    return { id: attempt.id };
  }

  /**
   * A Sumsub share token stands for a finished level-1 check elsewhere: its review runs as for the API path, and a
   * token containing "reject" (any case) is rejected, as a name would be.
   */
  private importToken(request: PartnerRequest) {
    const subAccount = this.subAccount(request);
    const importToken = requiredString(objectBody(request), "importToken");
    const attempt = this.addAttempt(subAccount, SUMSUB_TOKEN_LEVEL);
    this.review(attempt, nameRejects(importToken));
    return { id: attempt.id, message: "processing KYC" };
  }

  /** The hosted KYB's steps count as finished at once; the review then runs as for the API path. */
  private startHostedKyb(request: PartnerRequest) {
    const subAccount = this.subAccount(request);
    if (objectBody(request).redirectUrl === undefined) throw new PartnerError(400, "redirectUrl is required");
    const attempt = this.addAttempt(subAccount, "kyb-level-1-v2");
    this.review(attempt, nameRejects(subAccount.name));
    const base = `${this.context.baseUrl()}/_hosted/avenia/kyb/${attempt.id}`;
    return {
      attemptId: attempt.id,
      authorizedRepresentativeUrl: `${base}/representative`,
      basicCompanyDataUrl: `${base}/company`,
    };
  }

  private addAttempt(subAccount: SubAccount, levelName: string): Attempt {
    const now = isoNow();
    const attempt: Attempt = {
      id: randomUUID(),
      subAccountId: subAccount.id,
      levelName,
      status: "PENDING",
      result: "",
      resultMessage: null,
      retryable: null,
      createdAt: now,
      updatedAt: now,
    };
    this.attempts.set(attempt.id, attempt);
    return attempt;
  }

  private review(attempt: Attempt, rejected: boolean): void {
    attempt.rejects = rejected;
    this.advanceAttempt(attempt);
  }

  /** Schedules a reviewed attempt's next move: into processing, then its decision. */
  private advanceAttempt(attempt: Attempt): void {
    const { scheduler, timing } = this.context;
    const rejected = attempt.rejects;
    if (rejected === undefined || attempt.status === "COMPLETED") return;
    if (attempt.status === "PENDING")
      scheduler.after(timing.stageDelayMs, () => {
        this.moveAttempt(attempt, () => (attempt.status = "PROCESSING"));
        this.advanceAttempt(attempt);
      });
    else
      scheduler.after(timing.kycDecisionMs, () =>
        this.moveAttempt(attempt, () => {
          attempt.status = "COMPLETED";
          attempt.result = rejected ? "REJECTED" : "APPROVED";
          attempt.resultMessage = rejected ? "name does not match" : null;
          attempt.retryable = rejected;
          const subAccount = this.subAccounts.get(attempt.subAccountId);
          if (subAccount && !rejected) subAccount.identityStatus = "CONFIRMED";
        }),
      );
  }

  private moveAttempt(attempt: Attempt, change: () => void): void {
    change();
    attempt.updatedAt = isoNow();
    this.notify("KYC", attempt.subAccountId, { attempt: attemptView(attempt) });
  }

  private attempt(request: PartnerRequest): Attempt {
    const attempt = this.attempts.get(request.params.id ?? "");
    const subAccountId = request.query.get("subAccountId");
    if (!attempt || (subAccountId !== null && attempt.subAccountId !== subAccountId))
      throw new PartnerError(404, "attempt does not exist");
    return attempt;
  }

  /** One page: the simulator never holds enough attempts per subaccount to page. */
  private attemptsOf(subAccount: SubAccount) {
    const attempts = [...this.attempts.values()].filter((attempt) => attempt.subAccountId === subAccount.id);
    return { attempts: attempts.map(attemptView), cursor: null };
  }

  private registerWebhook(request: PartnerRequest) {
    const body = objectBody(request);
    const url = requiredString(body, "webhookUrl");
    const subscriptions = this.subscriptions(body.subscriptions);
    if (this.webhooks.size >= MAX_WEBHOOKS) throw new PartnerError(422, `at most ${MAX_WEBHOOKS} webhooks`);
    const webhook: Webhook = { id: randomUUID(), url, subscriptions };
    this.webhooks.set(webhook.id, webhook);
    return { webhookId: webhook.id };
  }

  private updateWebhook(request: PartnerRequest) {
    const body = objectBody(request);
    const webhook = this.webhooks.get(requiredString(body, "webhookId"));
    if (!webhook) throw new PartnerError(404, "webhook does not exist");
    const url = optionalString(body, "webhookUrl");
    const subscriptions = body.subscriptions === undefined ? undefined : this.subscriptions(body.subscriptions);
    if (url) webhook.url = url;
    if (subscriptions) webhook.subscriptions = subscriptions;
    return ok();
  }

  private deleteWebhook(request: PartnerRequest) {
    if (!this.webhooks.delete(request.params.id ?? "")) throw new PartnerError(404, "webhook does not exist");
    return ok();
  }

  private subscriptions(value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0 || !value.every((item) => WEBHOOK_SUBSCRIPTIONS.includes(item)))
      throw new PartnerError(400, `subscriptions must be a non-empty list of ${WEBHOOK_SUBSCRIPTIONS.join(", ")}`);
    return value as string[];
  }

  /** Signed with the simulator's key, to every webhook subscribed to the event (spec decision 5). */
  private notify(subscription: "TICKET" | "KYC", subAccountId: string, data: object): void {
    const rawBody = JSON.stringify({ subscription, subAccountId, data });
    const signature = signAveniaWebhook(rawBody, this.options.simulatorPrivateKey);
    for (const webhook of this.webhooks.values()) {
      if (!webhook.subscriptions.includes("*") && !webhook.subscriptions.includes(subscription)) continue;
      this.context.callbacks.send({ url: webhook.url, rawBody, headers: () => ({ signature }) });
    }
  }
}

function ticketView(ticket: Ticket) {
  const { id, status, subAccountId, failureReason, createdAt, updatedAt, expiresAt, quote } = ticket;
  const common = {
    id,
    status,
    userId: subAccountId,
    reason: "",
    failureReason,
    createdAt,
    updatedAt,
    expiresAt,
    quote: {
      id: quote.quoteToken,
      ticketId: id,
      inputPaymentMethod: quote.inputPaymentMethod,
      outputAmount: quote.outputAmount,
      appliedFees: quote.appliedFees,
    },
  };
  const receiver = {
    id: `${id}-receiver`,
    ticketId: id,
    walletAddress: ticket.walletAddress,
    walletChain: ticket.walletChain,
    walletMemo: "",
    txHash: ticket.txHash ?? "",
  };
  if (ticket.kind === "transfer") return { ...common, blockchainReceiverInfo: receiver };
  if (ticket.kind === "payin") {
    const paid = status !== "UNPAID";
    return {
      ...common,
      brazilianFiatSenderInfo: paid
        ? {
            name: "Simulated Payer",
            taxId: "***.123.456-**",
            bankCode: "001",
            branchCode: "0001",
            accountNumber: "123456",
            accountType: "CHECKING",
            endToEndId: `E${id.replace(/-/g, "").slice(0, 31)}`,
          }
        : null,
      blockchainReceiverInfo: receiver,
      brlPixInputInfo: {
        id: `${id}-pix`,
        ticketId: id,
        referenceLabel: ticket.additionalData ?? "",
        additionalData: ticket.additionalData ?? "",
        brCode: ticket.brCode,
      },
    };
  }
  const permit = ticket.permit as NonNullable<Ticket["permit"]>;
  return {
    ...common,
    brazilianFiatReceiverInfo: {
      id: `${id}-receiver`,
      ticketId: id,
      pixKey: ticket.pixKey,
      endToEndId: ticket.endToEndId ?? "",
    },
    blockchainSenderInfo: {
      id: `${id}-sender`,
      ticketId: id,
      walletAddress: ticket.walletAddress,
      txHash: status === "PENDING" ? "" : `0x${createHash("sha256").update(`${id}-permit`).digest("hex")}`,
    },
    blockchainInputInfo: {
      id: `${id}-input`,
      ticketId: id,
      ...permit,
      personalSignature: "",
      personalSignatureDeadline: 0,
    },
  };
}

/**
 * The holder of a PIX key, as Avenia decodes it (facts §1.3): a CPF, CNPJ, e-mail, phone (+55) or random (EVP) key
 * names a holder whose tax id comes back masked; anything else is no key (400). A CPF or CNPJ key's holder is that
 * tax id; another key's is a CPF made from the key, the same every time.
 */
function pixKeyHolder(request: PartnerRequest) {
  const pixKey = request.query.get("pixKey") ?? "";
  const digits = pixKey.replace(/[.\-/]/g, "");
  const isKey =
    /^\d{11}$|^\d{14}$/.test(digits) ||
    /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(pixKey) ||
    /^\+55\d{10,11}$/.test(pixKey) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(pixKey);
  if (!isKey) throw new PartnerError(400, "invalid pix key");
  const taxId = /^\d{11}$|^\d{14}$/.test(digits)
    ? digits
    : (BigInt(`0x${createHash("sha256").update(pixKey).digest("hex")}`) % 10n ** 11n).toString().padStart(11, "0");
  return { name: "SIMULATED RECEIVER", taxId: maskedTaxId(taxId), bankName: "Banco Simulado" };
}

/** A CPF as Avenia masks it, `***.456.789-**`; a CNPJ, `**.345.678/0001-**`. */
function maskedTaxId(taxId: string): string {
  return taxId.length === 11
    ? `***.${taxId.slice(3, 6)}.${taxId.slice(6, 9)}-**`
    : `**.${taxId.slice(2, 5)}.${taxId.slice(5, 8)}/${taxId.slice(8, 12)}-**`;
}

function attemptView(attempt: Attempt) {
  const { subAccountId: _subAccountId, rejects: _rejects, ...view } = attempt;
  return { ...view, submissionData: null };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isoNow(): string {
  return new Date().toISOString();
}
