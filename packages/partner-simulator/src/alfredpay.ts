import { createHash, randomUUID } from "node:crypto";
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
import { standardWebhookHeaders } from "./signing.js";
import { countIn } from "./stats.js";

export const ALFREDPAY_PREFIX = "/api/v1/third-party-service/penny";
/** Units of each fiat per US dollar (deterministic: tests and benchmarks compare amounts). */
const ONCHAIN_CURRENCIES = ["USDC", "USDT"];
const COMMISSION_RATE = 0.01;

export interface AlfredpayOptions {
  apiKey: string;
  apiSecret: string;
  callbackUrl?: string;
  /** `whsec_<base64 bytes>`. */
  callbackSecret?: string;
}

interface Customer {
  customerId: string;
  email: string;
  country: string;
  type: string;
  createdAt: string;
  verified: boolean;
}

interface Submission {
  submissionId: string;
  customerId: string;
  kind: "kyc" | "kyb";
  status: "CREATED" | "IN_REVIEW" | "COMPLETED" | "FAILED";
  updatedAt: string;
  failureReason?: string;
  rejects: boolean;
  /** A KYB form's business and related persons, as its details answer shows them. */
  business?: { businessName: unknown; relatedPersons: RelatedPerson[] };
}

interface RelatedPerson {
  idRelatedPerson: string;
  firstName?: unknown;
  lastName?: unknown;
}

interface Quote {
  quoteId: string;
  fromCurrency: string;
  toCurrency: string;
  fromAmount: string;
  toAmount: string;
  chain: string;
  paymentMethodType: string;
  expiration: string;
  fees: { type: string; amount: string; currency: string }[];
  rate: string;
  metadata: unknown;
}

type OnrampStatus =
  "CREATED" | "FIAT_DEPOSIT_RECEIVED" | "TRADE_COMPLETED" | "ON_CHAIN_INITIATED" | "ON_CHAIN_COMPLETED";
type OfframpStatus =
  "CREATED" | "ON_CHAIN_DEPOSIT_RECEIVED" | "TRADE_COMPLETED" | "FIAT_TRANSFER_INITIATED" | "FIAT_TRANSFER_COMPLETED";
type OrderStatus = OnrampStatus | OfframpStatus | "FAILED";

interface Order {
  kind: "onramp" | "offramp";
  transactionId: string;
  customer: Customer;
  quote: Quote;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
  depositAddress: string;
  txHash: string | null;
  failureReason?: string;
  fiatAccountId?: string;
  originAddress?: string;
  memo?: string;
  /** Until when the order takes its payment (an onramp's, named in its payment instructions) or deposit. */
  expiration: string;
  /** The `.77` trigger's one 503 has been served. */
  transientFaultServed: boolean;
}

interface FiatAccount {
  fiatAccountId: string;
  customerId: string;
  type: string;
  isExternal: boolean;
  createdAt: string;
  fields: Record<string, unknown>;
}

const PAYOUT_STAGE: OrderStatus[] = [
  "ON_CHAIN_INITIATED",
  "ON_CHAIN_COMPLETED",
  "FIAT_TRANSFER_INITIATED",
  "FIAT_TRANSFER_COMPLETED",
];

/** Each kind of order's statuses after its payment (onramp) or deposit (offramp), in order. */
const ORDER_STAGES: Readonly<Record<Order["kind"], readonly OrderStatus[]>> = {
  onramp: ["FIAT_DEPOSIT_RECEIVED", "TRADE_COMPLETED", "ON_CHAIN_INITIATED", "ON_CHAIN_COMPLETED"],
  offramp: ["ON_CHAIN_DEPOSIT_RECEIVED", "TRADE_COMPLETED", "FIAT_TRANSFER_INITIATED", "FIAT_TRANSFER_COMPLETED"],
};

/** What a snapshot of the simulated Alfredpay holds. */
export interface AlfredpayState {
  customers: Customer[];
  submissions: Submission[];
  quotes: Quote[];
  usedQuotes: [string, string][];
  orders: (Omit<Order, "customer"> & { customerId: string })[];
  fiatAccounts: FiatAccount[];
}

/** Alfredpay's API under `/api/v1/third-party-service/penny` (spec, endpoint subset; shapes from the facts §2.2). */
export class Alfredpay {
  private customers = new Map<string, Customer>();
  private submissions = new Map<string, Submission>();
  private quotes = new Map<string, Quote>();
  /** Quote id -> the order that used it. */
  private usedQuotes = new Map<string, string>();
  private orders = new Map<string, Order>();
  private fiatAccounts = new Map<string, FiatAccount>();

  readonly partner: Partner;

  constructor(
    private readonly context: PartnerContext,
    private readonly options: AlfredpayOptions,
  ) {
    this.partner = {
      pathPrefix: `${ALFREDPAY_PREFIX}/`,
      routes: this.routes(),
      isAuthenticated: (request) =>
        request.headers["api-key"] === options.apiKey && request.headers["api-secret"] === options.apiSecret,
      errorBody: (error) => ({
        errorCode: error.code ?? error.status,
        errorMessage: error.message,
        ...(error.metadata && { errorMetadata: error.metadata }),
      }),
    };
  }

  reset(): void {
    for (const map of [this.customers, this.submissions, this.quotes, this.orders, this.fiatAccounts]) map.clear();
    this.usedQuotes.clear();
  }

  /** Everything the partner holds, as JSON can keep it (src/state.ts): an order names its customer by id. */
  snapshot(): AlfredpayState {
    return {
      customers: [...this.customers.values()],
      submissions: [...this.submissions.values()],
      quotes: [...this.quotes.values()],
      usedQuotes: [...this.usedQuotes],
      orders: [...this.orders.values()].map(({ customer, ...order }) => ({
        ...order,
        customerId: customer.customerId,
      })),
      fiatAccounts: [...this.fiatAccounts.values()],
    };
  }

  /** Takes back what a snapshot held, and moves on what was under way then, each step its full delay from now. */
  restore(state: AlfredpayState): void {
    this.customers = new Map(state.customers.map((customer) => [customer.customerId, customer]));
    this.submissions = new Map(state.submissions.map((submission) => [submission.submissionId, submission]));
    this.quotes = new Map(state.quotes.map((quote) => [quote.quoteId, quote]));
    this.usedQuotes = new Map(state.usedQuotes);
    this.orders = new Map(
      state.orders.map(({ customerId, ...order }) => [
        order.transactionId,
        { ...order, customer: this.customer(customerId) },
      ]),
    );
    this.fiatAccounts = new Map(state.fiatAccounts.map((account) => [account.fiatAccountId, account]));
    for (const submission of this.submissions.values()) if (submission.status === "IN_REVIEW") this.decide(submission);
    for (const order of this.orders.values()) this.advanceOrder(order);
  }

  /** The customer pays a CREATED onramp now; false when there is none. */
  payOnramp(transactionId: string): boolean {
    const order = this.orders.get(transactionId);
    if (!order || order.kind !== "onramp" || order.status !== "CREATED") return false;
    // The instructions take no payment past their expiry.
    if (Date.parse(order.expiration) <= Date.now()) return false;
    this.move(order, "FIAT_DEPOSIT_RECEIVED");
    this.advanceOrder(order);
    return true;
  }

  private routes(): Route[] {
    const route = (method: string, path: string, handle: Route["handle"]): Route => ({
      method,
      template: `${ALFREDPAY_PREFIX}${path}`,
      handle,
    });
    return [
      route("POST", "/customers/create", (request) => ok(this.createCustomer(request))),
      route("GET", "/customers/find/{email}/{country}", (request) => ok(customerView(this.findCustomer(request)))),
      route("POST", "/customers/{customerId}/kyc", (request) => ok(this.createSubmission(request, "kyc"))),
      route("POST", "/customers/{customerId}/kyc/{submissionId}/submit", (request) => this.submit(request, "kyc")),
      route("POST", "/customers/{customerId}/kyc/{submissionId}/files", (request) =>
        this.attachFile(request, "kyc", "fileBody", KYC_FILE_TYPES),
      ),
      route("GET", "/customers/{customerId}/kyc/{submissionId}/status", (request) =>
        ok(statusView(this.submission(request, "kyc"))),
      ),
      route("GET", "/customers/{customerId}/kyc/{country}/url", (request) =>
        ok(this.hostedVerification(request, "kyc")),
      ),
      route("POST", "/customers/{customerId}/kyb", (request) => ok(this.createSubmission(request, "kyb"))),
      route("PUT", "/customers/{customerId}/kyb/{submissionId}/submit", (request) => this.submit(request, "kyb")),
      route("POST", "/customers/{customerId}/kyb/{submissionId}/files", (request) =>
        this.attachFile(request, "kyb", "rawBody", null),
      ),
      route("POST", "/customers/{customerId}/kyb/{idRelatedPerson}/files/relate-person", (request) =>
        this.attachRelatedPersonFile(request),
      ),
      route("GET", "/customers/{customerId}/kyb/details", (request) => ok(this.kybDetails(request))),
      route("GET", "/customers/{customerId}/kyb/{submissionId}/status", (request) =>
        ok(statusView(this.submission(request, "kyb"))),
      ),
      route("GET", "/customers/kyb/{customerId}/verification/url", (request) =>
        ok(this.hostedVerification(request, "kyb")),
      ),
      route("POST", "/quotes", (request) => ok(this.createQuote(request))),
      route("GET", "/quotes/{quoteId}", (request) => ok(this.quote(request.params.quoteId))),
      route("POST", "/onramp", (request) => ok(this.createOrder(request, "onramp"))),
      route("GET", "/onramp/{transactionId}", (request) => ok(this.readOrder(request, "onramp"))),
      route("POST", "/offramp", (request) => ok(this.createOrder(request, "offramp"))),
      route("GET", "/offramp/{transactionId}", (request) => ok(this.readOrder(request, "offramp"))),
      route("POST", "/fiatAccounts", (request) => ok(this.createFiatAccount(request))),
      route("GET", "/fiatAccounts", (request) =>
        ok(this.fiatAccountsOf(this.customer(request.query.get("customerId")))),
      ),
      route("DELETE", "/fiatAccounts/{customerId}/{fiatAccountId}", (request) => this.deleteFiatAccount(request)),
    ];
  }

  private createCustomer(request: PartnerRequest) {
    const body = objectBody(request);
    const email = requiredString(body, "email").toLowerCase();
    const country = requiredString(body, "country");
    const type = requiredString(body, "type");
    if (type !== "INDIVIDUAL" && type !== "BUSINESS") throw new PartnerError(400, "Invalid field(s): type", 110002);
    if (this.customerByEmail(email, country)) throw new PartnerError(409, "Customer already registered", 409);
    const customer: Customer = { customerId: randomUUID(), email, country, type, createdAt: isoNow(), verified: false };
    this.customers.set(customer.customerId, customer);
    return { customerId: customer.customerId, createdAt: customer.createdAt };
  }

  private customerByEmail(email: string, country: string): Customer | undefined {
    return [...this.customers.values()].find((customer) => customer.email === email && customer.country === country);
  }

  private findCustomer(request: PartnerRequest): Customer {
    const customer = this.customerByEmail((request.params.email ?? "").toLowerCase(), request.params.country ?? "");
    if (!customer) throw new PartnerError(404, "Customer not found", 404);
    return customer;
  }

  private customer(customerId: string | null | undefined): Customer {
    const customer = this.customers.get(customerId ?? "");
    if (!customer) throw new PartnerError(404, "Customer not found", 404);
    return customer;
  }

  private createSubmission(request: PartnerRequest, kind: Submission["kind"]) {
    const customer = this.customer(request.params.customerId);
    const body = objectBody(request);
    const form = body[kind === "kyc" ? "kycSubmission" : "kybSubmission"];
    if (typeof form !== "object" || form === null)
      throw new PartnerError(400, `Invalid field(s): ${kind}Submission`, 110002);
    const fields = form as Record<string, unknown>;
    // One KYB in the making at a time; a KYC form may be submitted again after a FAILED one.
    const unsubmittedKyb = [...this.submissions.values()].some(
      (submission) =>
        submission.customerId === customer.customerId && submission.kind === "kyb" && submission.status === "CREATED",
    );
    if (kind === "kyb" && unsubmittedKyb) throw new PartnerError(400, "Customer KYB already exists", 111405);
    const relatedPersons = Array.isArray(fields.relatedPersons)
      ? (fields.relatedPersons as Record<string, unknown>[])
      : [];
    const names =
      kind === "kyc"
        ? [fields.firstName, fields.lastName]
        : [fields.businessName, ...relatedPersons.flatMap((person) => [person.firstName, person.lastName])];
    const submission = this.addSubmission(customer, kind, nameRejects(...names));
    if (kind === "kyb")
      submission.business = {
        businessName: fields.businessName,
        relatedPersons: relatedPersons.map((person) => ({
          idRelatedPerson: randomUUID(),
          firstName: person.firstName,
          lastName: person.lastName,
        })),
      };
    return { submissionId: submission.submissionId };
  }

  private addSubmission(customer: Customer, kind: Submission["kind"], namesReject: boolean): Submission {
    const submission: Submission = {
      submissionId: randomUUID(),
      customerId: customer.customerId,
      kind,
      status: "CREATED",
      updatedAt: isoNow(),
      rejects: namesReject || emailRejects(customer.email),
    };
    this.submissions.set(submission.submissionId, submission);
    return submission;
  }

  private submission(request: PartnerRequest, kind: Submission["kind"]): Submission {
    const submission = this.submissions.get(request.params.submissionId ?? "");
    if (!submission || submission.kind !== kind || submission.customerId !== request.params.customerId)
      throw new PartnerError(404, "Submission not found", 404);
    return submission;
  }

  private submit(request: PartnerRequest, kind: Submission["kind"]) {
    const submission = this.submission(request, kind);
    if (submission.status !== "CREATED")
      throw new PartnerError(422, `${kind.toUpperCase()} record cannot be resubmitted`, 422);
    this.review(submission);
    return ok();
  }

  /**
   * Takes a file for a submission still being filled in; one already submitted refuses it 422, as a second submit
   * is. The files are checked, not kept: nothing the simulator decides reads them. `fileTypes` null takes any
   * (KYB's depend on the country's requirements).
   */
  private attachFile(
    request: PartnerRequest,
    kind: Submission["kind"],
    fileField: string,
    fileTypes: readonly string[] | null,
  ) {
    const submission = this.submission(request, kind);
    if (submission.status !== "CREATED")
      throw new PartnerError(422, `${kind.toUpperCase()} record already submitted`, 422);
    checkUpload(request, fileField, fileTypes);
    return ok();
  }

  /** A related person's document, while the KYB form naming them is not yet submitted. */
  private attachRelatedPersonFile(request: PartnerRequest) {
    const { customerId, idRelatedPerson } = request.params;
    const submission = [...this.submissions.values()].find(
      (candidate) =>
        candidate.customerId === customerId &&
        candidate.business?.relatedPersons.some((person) => person.idRelatedPerson === idRelatedPerson),
    );
    if (!submission) throw new PartnerError(404, "Related person not found", 404);
    if (submission.status !== "CREATED") throw new PartnerError(422, "KYB record already submitted", 422);
    checkUpload(request, "rawBody", RELATED_PERSON_FILE_TYPES);
    return ok();
  }

  private kybDetails(request: PartnerRequest) {
    const customer = this.customer(request.params.customerId);
    return [...this.submissions.values()].flatMap(({ business, submissionId, customerId }) =>
      business && customerId === customer.customerId
        ? [{ customerId, country: customer.country, submissionId, ...business }]
        : [],
    );
  }

  /** The hosted flow's steps count as finished at once; the review then runs as for a submitted form. */
  private hostedVerification(request: PartnerRequest, kind: Submission["kind"]) {
    const customer = this.customer(request.params.customerId);
    const submission = this.addSubmission(customer, kind, false);
    this.review(submission);
    return {
      verification_url: `${this.context.baseUrl()}/_hosted/alfredpay/${kind}/${submission.submissionId}`,
      submissionId: submission.submissionId,
    };
  }

  private review(submission: Submission): void {
    this.moveSubmission(submission, "IN_REVIEW");
    this.decide(submission);
  }

  /** Schedules the decision of a submission in review. */
  private decide(submission: Submission): void {
    this.context.scheduler.after(this.context.timing.kycDecisionMs, () => {
      if (submission.rejects) submission.failureReason = "Identity could not be verified";
      this.moveSubmission(submission, submission.rejects ? "FAILED" : "COMPLETED");
      const customer = this.customers.get(submission.customerId);
      if (customer && !submission.rejects) customer.verified = true;
    });
  }

  private moveSubmission(submission: Submission, status: Submission["status"]): void {
    submission.status = status;
    submission.updatedAt = isoNow();
    this.notify(submission.kind, statusView(submission));
  }

  private createQuote(request: PartnerRequest) {
    const body = objectBody(request);
    const fromCurrency = requiredString(body, "fromCurrency");
    const toCurrency = requiredString(body, "toCurrency");
    const onramp = ONCHAIN_CURRENCIES.includes(toCurrency);
    const fiat = onramp ? fromCurrency : toCurrency;
    const rate = this.context.fiatPerUsd.get(fiat);
    if (rate === undefined || !ONCHAIN_CURRENCIES.includes(onramp ? toCurrency : fromCurrency))
      throw new PartnerError(400, "Invalid field(s): unsupported currency pair", 110002);
    const fromAmount = parseAmount(body.fromAmount);
    const toAmount = parseAmount(body.toAmount);
    if ((fromAmount === undefined) === (toAmount === undefined))
      throw new PartnerError(400, "Invalid field(s): exactly one of fromAmount and toAmount", 110002);
    // Fiat gross = the fiat side before the commission; the crypto side follows at `rate`. A side given stays as given.
    const crypto = onramp ? undefined : (fromAmount ?? (toAmount as number) / (1 - COMMISSION_RATE) / rate);
    const fiatGross = onramp
      ? (fromAmount ?? ((toAmount as number) * rate) / (1 - COMMISSION_RATE))
      : (crypto as number) * rate;
    const commission = fiatGross * COMMISSION_RATE;
    const quote: Quote = {
      quoteId: randomUUID(),
      fromCurrency,
      toCurrency,
      fromAmount: onramp ? formatAmount(fiatGross) : formatAmount(crypto as number, 6),
      toAmount: onramp
        ? formatAmount(toAmount ?? (fiatGross - commission) / rate, 6)
        : formatAmount(fiatGross - commission),
      chain: optionalString(body, "chain") ?? "MATIC",
      paymentMethodType: requiredString(body, "paymentMethodType"),
      expiration: new Date(Date.now() + this.context.timing.quoteTtlMs).toISOString(),
      fees: [{ type: "commissionFee", amount: formatAmount(commission), currency: fiat }],
      rate: String(rate),
      metadata: body.metadata ?? {},
    };
    this.forgetStaleQuotes();
    this.quotes.set(quote.quoteId, quote);
    return quote;
  }

  /** Unused quotes an hour past expiry are forgotten; a used one names its order for as long as the order exists. */
  private forgetStaleQuotes(): void {
    const cutoff = Date.now() - EXPIRED_QUOTE_MEMORY_MS;
    for (const [quoteId, quote] of this.quotes)
      if (Date.parse(quote.expiration) < cutoff && !this.usedQuotes.has(quoteId)) this.quotes.delete(quoteId);
  }

  private quote(quoteId: string | undefined): Quote {
    const quote = this.quotes.get(quoteId ?? "");
    if (!quote) throw new PartnerError(404, "Quote not found", 404);
    return quote;
  }

  private createOrder(request: PartnerRequest, kind: Order["kind"]) {
    const body = objectBody(request);
    const customer = this.customer(requiredString(body, "customerId"));
    const quote = this.quote(requiredString(body, "quoteId"));
    // Before any other check: a used quote names its order for as long as the order exists, expired or not, so a
    // client whose answer was lost learns the order by sending again (spec decision 8).
    const identity = `${kind}:${quote.quoteId}`;
    const usedBy = this.usedQuotes.get(quote.quoteId);
    if (usedBy !== undefined) {
      countIn(this.context.stats().duplicateMoneySteps, identity);
      throw new PartnerError(409, "Quote already used", 111409, { transactionId: usedBy });
    }
    const onchain = kind === "onramp" ? quote.toCurrency : quote.fromCurrency;
    if (!ONCHAIN_CURRENCIES.includes(onchain))
      throw new PartnerError(400, `Invalid field(s): quote is not for an ${kind}`, 110002);
    if (requiredString(body, "amount") !== quote.fromAmount)
      throw new PartnerError(400, "Invalid field(s): amount", 110002);
    if (!customer.verified) throw new PartnerError(403, "Customer verification is not completed", 403);
    if (Date.parse(quote.expiration) < Date.now()) throw new PartnerError(400, "Quote expired", 110002);
    const fiatAccountId = kind === "offramp" ? requiredString(body, "fiatAccountId") : undefined;
    if (fiatAccountId !== undefined && this.fiatAccounts.get(fiatAccountId)?.customerId !== customer.customerId)
      throw new PartnerError(404, "Fiat account not found", 404);
    const transactionId = randomUUID();
    this.usedQuotes.set(quote.quoteId, transactionId);
    countIn(this.context.stats().moneySteps, identity);
    const now = isoNow();
    const order: Order = {
      kind,
      transactionId,
      customer,
      quote,
      status: "CREATED",
      createdAt: now,
      updatedAt: now,
      depositAddress:
        kind === "onramp"
          ? requiredString(body, "depositAddress")
          : `0x${createHash("sha256").update(transactionId).digest("hex").slice(0, 40)}`,
      txHash: null,
      fiatAccountId,
      originAddress: kind === "offramp" ? requiredString(body, "originAddress") : undefined,
      memo: optionalString(body, "memo"),
      expiration: new Date(Date.now() + this.context.timing.orderLifetimeMs).toISOString(),
      transientFaultServed: false,
    };
    this.orders.set(transactionId, order);
    this.advanceOrder(order);
    return kind === "onramp"
      ? { transaction: orderView(order), fiatPaymentInstructions: paymentInstructions(order) }
      : orderView(order);
  }

  private readOrder(request: PartnerRequest, kind: Order["kind"]) {
    const order = this.orders.get(request.params.transactionId ?? "");
    if (!order || order.kind !== kind) throw new PartnerError(404, "Transaction not found", 404);
    if (
      hasFraction(order.quote.fromAmount, "77") &&
      PAYOUT_STAGE.includes(order.status) &&
      !order.transientFaultServed
    ) {
      order.transientFaultServed = true;
      throw new PartnerError(503, "Service temporarily unavailable", 503);
    }
    return kind === "onramp"
      ? { ...orderView(order), fiatPaymentInstructions: paymentInstructions(order) }
      : orderView(order);
  }

  /**
   * Schedules an order's next move on the partner's clock: an onramp's payment, an offramp's deposit, then each stage
   * a stage delay after the one before; `.66` fails instead of completing the trade (spec, triggers).
   */
  private advanceOrder(order: Order): void {
    const { scheduler, timing } = this.context;
    if (order.status === "CREATED") {
      if (order.kind === "onramp") scheduler.after(timing.paymentDelayMs, () => this.payOnramp(order.transactionId));
      else
        scheduler.after(timing.depositDelayMs, () => {
          // The deposit address takes nothing past the order's expiry.
          if (order.status !== "CREATED" || Date.parse(order.expiration) <= Date.now()) return;
          this.move(order, "ON_CHAIN_DEPOSIT_RECEIVED");
          this.advanceOrder(order);
        });
      return;
    }
    const stages = ORDER_STAGES[order.kind];
    const next = stages[stages.indexOf(order.status) + 1];
    if (order.status === "FAILED" || !next) return;
    scheduler.after(timing.stageDelayMs, () => {
      if (next === "TRADE_COMPLETED" && hasFraction(order.quote.fromAmount, "66")) {
        order.failureReason = "Exchange refused";
        this.move(order, "FAILED");
        return;
      }
      if (next === "ON_CHAIN_COMPLETED")
        order.txHash = `0x${createHash("sha256").update(order.transactionId).digest("hex")}`;
      this.move(order, next);
      this.advanceOrder(order);
    });
  }

  private move(order: Order, status: OrderStatus): void {
    order.status = status;
    order.updatedAt = isoNow();
    this.notify(order.kind, orderView(order));
  }

  private createFiatAccount(request: PartnerRequest) {
    const body = objectBody(request);
    const customer = this.customer(requiredString(body, "customerId"));
    const type = requiredString(body, "type");
    const isExternal = body.isExternal === true;
    if (typeof body.fiatAccountFields !== "object" || body.fiatAccountFields === null)
      throw new PartnerError(400, "Invalid field(s): fiatAccountFields", 110002);
    const fields = objectOrEmpty(body.fiatAccountFields);
    const invalid = invalidFiatAccountFields(customer.country, type, isExternal, fields);
    if (invalid.length) throw new PartnerError(400, `Invalid field(s): ${invalid.join(", ")}`, 110002);
    const account: FiatAccount = {
      fiatAccountId: randomUUID(),
      customerId: customer.customerId,
      type,
      isExternal,
      createdAt: isoNow(),
      fields,
    };
    this.fiatAccounts.set(account.fiatAccountId, account);
    return { fiatAccountId: account.fiatAccountId };
  }

  private fiatAccountsOf(customer: Customer) {
    return [...this.fiatAccounts.values()]
      .filter((account) => account.customerId === customer.customerId)
      .map(({ fiatAccountId, customerId, type, createdAt, isExternal, fields }) => ({
        ...fields,
        fiatAccountId,
        customerId,
        type,
        createdAt,
        isExternal,
      }));
  }

  private deleteFiatAccount(request: PartnerRequest) {
    const account = this.fiatAccounts.get(request.params.fiatAccountId ?? "");
    if (!account || account.customerId !== request.params.customerId)
      throw new PartnerError(404, "Fiat account not found", 404);
    this.fiatAccounts.delete(account.fiatAccountId);
    return ok();
  }

  /** A Standard-Webhooks-signed callback, when one is configured (spec decision 7). */
  private notify(type: Order["kind"] | Submission["kind"], data: object): void {
    const { callbackUrl, callbackSecret } = this.options;
    if (!callbackUrl || !callbackSecret) return;
    const rawBody = JSON.stringify({ type, data });
    const id = `msg_${randomUUID()}`;
    this.context.callbacks.send({
      url: callbackUrl,
      rawBody,
      headers: () => standardWebhookHeaders(callbackSecret, id, rawBody, Date.now()),
    });
  }
}

/** The account types a customer of each country registers (spec: Alfredpay's rails in MX, AR, CO and the US). */
const FIAT_ACCOUNT_TYPES_BY_COUNTRY: Record<string, readonly string[]> = {
  MX: ["SPEI"],
  AR: ["COELSA"],
  CO: ["ACH"],
  US: ["ACH", "BANK_USA"],
};

/**
 * The fiat-account fields a type is refused without (the facts' shapes, and the gateway's choices where they are
 * silent): SPEI a CLABE, COELSA a CBU or CVU, Colombian ACH the bank's code and the holder's document, US accounts a
 * routing number and an account type, an external US wire its beneficiary's address. Shapes are checked, not check
 * digits. The names of what is wrong, none when the fields fit.
 */
function invalidFiatAccountFields(
  country: string,
  type: string,
  isExternal: boolean,
  fields: Record<string, unknown>,
): string[] {
  if (!FIAT_ACCOUNT_TYPES_BY_COUNTRY[country]?.includes(type)) return ["type"];
  const given = (value: unknown) => typeof value === "string" && value !== "";
  const matches = (value: unknown, pattern: RegExp) => typeof value === "string" && pattern.test(value);
  const oneOf = (value: unknown, values: readonly string[]) => values.includes(value as string);
  const metadata = objectOrEmpty(fields.metadata);
  const { accountNumber, accountType, accountName, routingNumber } = fields;
  const fits: Record<string, boolean> =
    type === "SPEI"
      ? { accountNumber: matches(accountNumber, /^\d{18}$/), accountType: accountType === "CLABE" }
      : type === "COELSA"
        ? { accountNumber: matches(accountNumber, /^\d{22}$/), accountType: oneOf(accountType, ["CBU", "CVU"]) }
        : country === "CO"
          ? {
              accountNumber: matches(accountNumber, /^\d{6,20}$/),
              accountType: oneOf(accountType, ["CORRIENTE", "AHORRO"]),
              accountName: given(accountName),
              "metadata.documentType": given(metadata.documentType),
              "metadata.documentNumber": given(metadata.documentNumber),
            }
          : {
              accountNumber: matches(accountNumber, /^\d{4,17}$/),
              accountType: oneOf(accountType, ["CHECKING", "SAVINGS"]),
              routingNumber: matches(routingNumber, /^\d{9}$/),
              ...(type === "BANK_USA" &&
                isExternal &&
                beneficiaryAddressFits(objectOrEmpty(metadata.beneficiaryAddress))),
            };
  return Object.entries(fits).flatMap(([field, fit]) => (fit ? [] : [field]));
}

function beneficiaryAddressFits(address: Record<string, unknown>): Record<string, boolean> {
  return Object.fromEntries(
    ["street", "city", "stateProvince", "postalCode"].map((part) => [
      `metadata.beneficiaryAddress.${part}`,
      typeof address[part] === "string" && address[part] !== "",
    ]),
  );
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function customerView({ customerId, country, createdAt, type }: Customer) {
  return { customerId, country, createdAt, type };
}

/** The status answer, plus the ids a callback's receiver needs to know which submission it is about. */
function statusView(submission: Submission) {
  const { submissionId, customerId, status, updatedAt, failureReason } = submission;
  return { submissionId, customerId, status, updatedAt, metadata: failureReason ? { failureReason } : null };
}

function orderView(order: Order) {
  const { transactionId, customer, quote, createdAt, updatedAt, depositAddress, status, txHash, failureReason } = order;
  const common = {
    transactionId,
    customerId: customer.customerId,
    createdAt,
    updatedAt,
    quoteId: quote.quoteId,
    fromCurrency: quote.fromCurrency,
    toCurrency: quote.toCurrency,
    fromAmount: quote.fromAmount,
    toAmount: quote.toAmount,
    chain: quote.chain,
    depositAddress,
    status,
    metadata: txHash || failureReason ? { txHash: txHash ?? undefined, failureReason } : null,
    quote,
  };
  if (order.kind === "onramp")
    return {
      ...common,
      email: customer.email,
      paymentMethodType: quote.paymentMethodType,
      txHash,
      externalId: null,
      memo: null,
    };
  return {
    ...common,
    fiatAccountId: order.fiatAccountId,
    originAddress: order.originAddress,
    memo: order.memo ?? null,
    expiration: order.expiration,
  };
}

function paymentInstructions(order: Order) {
  const reference = order.transactionId.replace(/-/g, "").slice(0, 10).toUpperCase();
  const expirationDate = order.expiration;
  if (order.quote.fromCurrency === "MXN")
    return { paymentType: "SPEI", clabe: "646180157000000004", reference, expirationDate };
  return {
    paymentType: "BANK",
    expirationDate,
    bankName: "Simulated Bank",
    bankAccountNumber: "000123456789",
    bankRoutingNumber: "021000021",
    bankBeneficiaryName: "Alfredpay Simulator",
    paymentDescription: reference,
    reference,
  };
}

function isoNow(): string {
  return new Date().toISOString();
}

const KYC_FILE_TYPES = ["National ID Front", "National ID Back", "Selfie"] as const;
const RELATED_PERSON_FILE_TYPES = ["docFront", "docBack"] as const;
/** A phone photo of a document fits; anything larger is refused, well under the server's 1 MB body bound. */
export const MAX_UPLOAD_BYTES = 512 * 1024;

function checkUpload(request: PartnerRequest, fileField: string, fileTypes: readonly string[] | null): void {
  const file = request.form?.get(fileField);
  if (!(file instanceof File) || file.size === 0) throw new PartnerError(400, `Invalid field(s): ${fileField}`, 110002);
  if (!/^[\x20-\x7e]+$/.test(file.name)) throw new PartnerError(400, "file name must be ASCII", 110002);
  if (file.size > MAX_UPLOAD_BYTES) throw new PartnerError(413, "file too large", 413);
  const fileType = request.form?.get("fileType");
  if (typeof fileType !== "string" || fileType === "" || (fileTypes !== null && !fileTypes.includes(fileType)))
    throw new PartnerError(400, "Invalid field(s): fileType", 110002);
}
