import { randomUUID } from "node:crypto";
import type { ActingContext, Delegation } from "../auth/delegation.js";
import { isUniqueViolation } from "../db/tx.js";
import { AppError } from "../errors.js";
import type { RampEventOutbox } from "../events/outbox.js";
import type { OutboxSignal } from "../events/outbox-signal.js";
import { FIAT_ACCOUNT_COUNTRIES } from "../fiat-accounts/rail-rules.js";
import type { FiatAccountService, PayoutAccount } from "../fiat-accounts/service.js";
import type { KycService } from "../kyc/service.js";
import type { PaymentInstructions, RampProvider } from "../providers/ramp-port.js";
import type { QuoteService } from "../quotes/service.js";
import { quoteTerms } from "../quotes/service.js";
import { explorerLink, isAddressOn } from "../reference-data/catalog.js";
import type { Corridor } from "../reference-data/corridors.js";
import { canonicalId, fieldError } from "../validation.js";
import type { WidgetSessionService } from "../widget-sessions/service.js";
import { statusOfPhase, type RampPhase } from "../reference-data/ramp-phases.js";
import type { RampRepository } from "./repo.js";
import type { RampRow, RampViewRow } from "./rows-repo.js";
import { type HistoryPage, type RampErrorView, type RampView, type RegisterInput, type UpdateInput } from "./types.js";
import type { RampHistory, RampViewCache } from "./view-cache.js";

/** A ramp still in its initial phase and start window, which the caller may act on. */
export type StartableRamp = RampRow;

const notFound = () => new AppError("NOT_FOUND", "Ramp not found.");

export interface RampSettings {
  startWindowMs: number;
}

/**
 * Ramps: registration consumes a quote once, update and start act only in the initial phase and start
 * window, and every change writes its outbox events in the same transaction.
 */
export class RampService {
  constructor(
    private readonly repository: RampRepository,
    private readonly provider: RampProvider,
    private readonly kyc: KycService,
    private readonly delegation: Delegation,
    private readonly fiatAccounts: FiatAccountService,
    private readonly quotes: QuoteService,
    private readonly widgetSessions: WidgetSessionService,
    private readonly events: RampEventOutbox,
    private readonly outbox: OutboxSignal,
    private readonly views: RampViewCache,
    private readonly settings: RampSettings,
  ) {}

  /** The subject's ramps completed since `since` in the corridors, with their amounts (what monthly limits count). */
  completedSince(subjectProfileId: string, corridors: string[], since: Date) {
    return this.repository.findCompletedSince(subjectProfileId, corridors, since);
  }

  /** The quote a registration names, once the caller may use its corridor (checked before the rest of the input). */
  async registrableQuote(acting: ActingContext, quoteId: string) {
    const quote = await this.quotes.findUsable(quoteId, acting.subjectProfileId);
    if (!quote) throw new AppError("NOT_FOUND", "Quote not found.");
    await this.delegation.authorizeCorridor(acting, quote.corridor as Corridor);
    return quote;
  }

  /** Registers a ramp from the quote `registrableQuote` gave. */
  async register(
    acting: ActingContext,
    quote: Awaited<ReturnType<RampService["registrableQuote"]>>,
    request: RegisterInput,
  ): Promise<RampView> {
    const corridor = quote.corridor as Corridor;

    const isBuy = quote.rampType === "BUY";
    const extra = request.additionalData ?? {};
    if (
      request.destinationAddress &&
      extra.destinationAddress &&
      request.destinationAddress !== extra.destinationAddress
    ) {
      throw fieldError("additionalData.destinationAddress", "differs from destinationAddress");
    }
    const walletAddress = isBuy ? (request.destinationAddress ?? extra.destinationAddress) : extra.walletAddress;
    const walletField = isBuy ? "destinationAddress" : "additionalData.walletAddress";
    if (!walletAddress)
      throw fieldError(
        walletField,
        isBuy ? "is required for BUY: where the tokens go" : "is required for SELL: where the tokens come from",
      );
    if (!isAddressOn(quote.network, walletAddress))
      throw fieldError(walletField, `is not a valid ${quote.network} address`);
    if (request.sessionId && !(await this.widgetSessions.isVisible(request.sessionId, acting.subjectProfileId))) {
      throw new AppError("NOT_FOUND", "Widget session not found.");
    }
    const payout = await this.payoutAccount(acting, quote.rampType, corridor, request.fiatAccountId);

    if ((await this.kyc.corridorStatus(acting.subjectProfileId, corridor)) !== "approved") {
      throw new AppError("KYC_NOT_APPROVED", `KYC for the ${corridor} corridor is not approved for this profile.`);
    }
    if (corridor === "BR" && extra.taxId !== undefined) {
      const verified = await this.kyc.verifiedBrazilianTaxId(acting.subjectProfileId);
      if (extra.taxId.replace(/\D/g, "") !== verified)
        throw fieldError("additionalData.taxId", "does not match the profile's verified tax id");
    }

    const partnerCustomerId = await this.kyc.approvedCustomer(acting.subjectProfileId, corridor);
    // The partner pays out only to an account of the customer that places the order: the approved one.
    if (payout && payout.partnerCustomerId !== partnerCustomerId)
      throw fieldError("fiatAccountId", "belongs to another of the subject's customers than the one verified");
    const now = new Date();
    if (quote.expiresAt <= now) throw new AppError("QUOTE_EXPIRED");
    if (quote.consumedAt) throw new AppError("QUOTE_CONSUMED");
    const id = randomUUID();
    // The partner is asked before the transaction, never inside it; a quote consumed meanwhile leaves it a
    // registration nobody starts, which it drops like any ramp never started.
    const registration = await this.provider.register({
      id,
      type: quote.rampType as "BUY" | "SELL",
      corridor,
      paymentMethod: quote.paymentMethod,
      network: quote.network,
      walletAddress,
      inputAmount: quote.inputAmount,
      inputCurrency: quote.inputCurrency,
      outputCurrency: quote.outputCurrency,
      partnerCustomerId,
      partnerPayoutAccountId: payout?.partnerAccountId ?? null,
      pixKey: extra.pixDestination ?? null,
      receiverTaxId: extra.receiverTaxId ?? null,
    });
    try {
      const ramp = await this.repository.transaction(async (tx) => {
        if (!(await this.quotes.consume(tx, quote.id, now))) return null;
        const created = await this.repository.insertRamp(
          tx,
          {
            id,
            quoteId: quote.id,
            profileId: acting.subjectProfileId,
            actorProfileId: acting.actorProfileId,
            credentialId: acting.credentialId,
            type: quote.rampType,
            corridor,
            currentPhase: "initial",
            status: "PENDING",
            walletAddress,
            fiatAccountId: payout?.fiatAccountId ?? null,
            sessionId: request.sessionId ?? null,
            additionalData: JSON.stringify({
              ...extra,
              ...(request.signingAccounts ? { signingAccounts: request.signingAccounts } : {}),
            }),
            unsignedTxs: JSON.stringify(registration.unsignedTxs),
            depositQrCode: registration.depositQrCode,
            partnerCustomerId,
            partnerOrderId: registration.partnerOrderId,
            partnerPayment: registration.partnerPayment && JSON.stringify(registration.partnerPayment),
            startDeadline: new Date(now.getTime() + this.settings.startWindowMs),
            createdAt: now,
          },
          { ...quote, consumedAt: now },
        );
        await this.events.record(tx, eventRamp(created), "TRANSACTION_CREATED", now);
        return created;
      });
      if (!ramp) throw await this.quotes.unavailable(quote.id);
      this.outbox.committed();
      return this.view(ramp);
    } catch (error) {
      // The unique quote id is the database's last word on "one ramp per quote".
      if (isUniqueViolation(error)) throw new AppError("QUOTE_CONSUMED");
      throw error;
    }
  }

  /**
   * Where the ramp pays out fiat: SELL ramps in the fiat-account corridors name one of the subject's
   * accounts there; elsewhere (BUY, BRL by PIX, EUR by SEPA) there is nothing to name.
   */
  private async payoutAccount(
    acting: ActingContext,
    rampType: string,
    corridor: Corridor,
    fiatAccountId: string | undefined,
  ): Promise<PayoutAccount | null> {
    const needsAccount = rampType === "SELL" && (FIAT_ACCOUNT_COUNTRIES as readonly string[]).includes(corridor);
    if (!needsAccount) {
      if (fiatAccountId)
        throw fieldError(
          "fiatAccountId",
          rampType === "SELL"
            ? `is not used in ${corridor}: the payout goes by the quote's rail`
            : "is only for SELL ramps",
        );
      return null;
    }
    if (!fiatAccountId)
      throw fieldError("fiatAccountId", `is required for a SELL ramp in ${corridor}: the account the payout goes to`);
    return this.fiatAccounts.payoutAccount(acting.subjectProfileId, fiatAccountId, corridor);
  }

  /** Adds signed transactions and client-reported hashes while the ramp is initial; later values win. */
  async update(acting: ActingContext, request: UpdateInput, initial: StartableRamp): Promise<RampView> {
    for (let ramp = initial; ; ramp = await this.startable(acting, request.rampId)) {
      const reported = Object.entries(request.additionalData ?? {}).filter(([, value]) => value !== undefined);
      const additionalData = { ...JSON.parse(ramp.additionalData), ...Object.fromEntries(reported) };
      const updated = await this.repository.transaction((tx) =>
        this.repository.updateRampIf(
          tx,
          { id: ramp.id, currentPhase: "initial", revision: ramp.revision, startDeadlineAfter: new Date() },
          {
            additionalData: JSON.stringify(additionalData),
            presignedTxs: JSON.stringify(request.presignedTxs),
            revision: ramp.revision + 1,
          },
        ),
      );
      if (updated) {
        await this.views.changed(updated.id);
        return this.view(updated);
      }
      // Another update (or the start) won the race: read the ramp again, check again and merge onto its values.
    }
  }

  /** The caller says the external part (a bank transfer, a signed transfer) is done: processing begins. */
  async start(acting: ActingContext, ramp: StartableRamp): Promise<RampView> {
    if (ramp.type === "SELL") {
      const presignedTxs = JSON.parse(ramp.presignedTxs) as unknown[];
      if (presignedTxs.length === 0)
        throw fieldError("presignedTxs", "must be submitted with POST /v1/ramp/update before a SELL ramp starts");
      const problem = this.provider.presignedProblem({
        corridor: ramp.corridor as Corridor,
        type: "SELL",
        presignedTxs,
      });
      if (problem) throw fieldError("presignedTxs", problem);
    }
    const now = new Date();
    const started = await this.repository.transaction(async (tx) => {
      const moved = await this.repository.updateRampIf(
        tx,
        { id: ramp.id, currentPhase: "initial", startDeadlineAfter: now },
        {
          currentPhase: "awaitingPayment",
          startedAt: now,
          nextStepAt: new Date(now.getTime() + this.provider.firstStepDelayMs(ramp.corridor as Corridor)),
        },
      );
      if (moved) await this.events.record(tx, eventRamp(moved), "PHASE_CHANGE", now);
      return moved;
    });
    if (!started) throw this.notStartable(await this.repository.findRamp(ramp.id, acting.subjectProfileId));
    await this.views.enteredHistory(started);
    this.outbox.committed();
    return this.view(started);
  }

  /** Reads skip the corridor checks: a tightened policy never hides a ramp. Status polling: from memory when unchanged. */
  async get(acting: ActingContext, rampId: string): Promise<RampView> {
    const id = canonicalId(rampId);
    const view =
      id &&
      (await this.views.load(acting.subjectProfileId, id, async () => {
        const ramp = await this.repository.findRampView(id, acting.subjectProfileId);
        return ramp ? this.view(ramp) : undefined;
      }));
    if (!view) throw notFound();
    return view;
  }

  async errors(acting: ActingContext, rampId: string): Promise<RampErrorView[]> {
    const ramp = await this.get(acting, rampId);
    return (await this.errorsOfRamps([ramp.id])).get(ramp.id)!;
  }

  /**
   * Error logs of ramps the caller already read as the subject's (GraphQL batches a page's), keyed by ramp
   * id: from memory until the ramp changes, the others in one statement.
   */
  errorsOfRamps(rampIds: readonly string[]): Promise<Map<string, RampErrorView[]>> {
    return this.views.errorLogsOf(rampIds, async (missing) => {
      const byRamp = new Map<string, RampErrorView[]>(missing.map((id) => [id, []]));
      for (const entry of await this.repository.listErrorsOfRamps(missing))
        byRamp.get(entry.rampId)?.push(toErrorView(entry));
      return byRamp;
    });
  }

  /** Dashboards repeat it: from memory until one of its ramps changes or another enters the history. */
  history(acting: ActingContext, page: HistoryPage): Promise<RampHistory> {
    return this.views.loadHistory(acting.subjectProfileId, page, async () => {
      const { ramps, total } = await this.repository.listHistory(acting.subjectProfileId, page);
      return { totalCount: total, ramps: ramps.map((ramp) => this.view(ramp)) };
    });
  }

  /**
   * The same page of several subjects' histories (a manager's children, each already authorized), by subject,
   * in one statement; a list of lists is read whole, so it skips the page cache.
   */
  async histories(subjectProfileIds: readonly string[], page: HistoryPage): Promise<Map<string, RampHistory>> {
    const pages = await this.repository.listHistories(subjectProfileIds, page);
    return new Map(
      [...pages].map(([subject, { rows, total }]) => [
        subject,
        { totalCount: total, ramps: rows.map((ramp) => this.view(ramp)) },
      ]),
    );
  }

  /** The ramp an update or start names, after the corridor checks, still initial and within its window. */
  async startable(acting: ActingContext, rampId: string): Promise<StartableRamp> {
    const ramp = await this.repository.findRamp(rampId, acting.subjectProfileId);
    if (!ramp) throw notFound();
    await this.delegation.authorizeCorridor(acting, ramp.corridor as Corridor);
    if (ramp.currentPhase !== "initial" || ramp.startDeadline <= new Date()) throw this.notStartable(ramp);
    return ramp;
  }

  private notStartable(ramp: RampRow | null): AppError {
    if (!ramp) return notFound();
    if (ramp.currentPhase === "timedOut" || (ramp.currentPhase === "initial" && ramp.startDeadline <= new Date())) {
      return new AppError(
        "RAMP_START_WINDOW_ELAPSED",
        `The ramp had to be started by ${ramp.startDeadline.toISOString()}.`,
      );
    }
    return new AppError("RAMP_NOT_STARTABLE", `The ramp is already in phase ${ramp.currentPhase}.`);
  }

  view(ramp: RampViewRow): RampView {
    const { quote } = ramp;
    // Fields first, then the spread: building it the other way round leaves V8 a slow dictionary object.
    return {
      id: ramp.id,
      quoteId: ramp.quoteId,
      type: ramp.type as RampView["type"],
      currentPhase: ramp.currentPhase as RampPhase,
      status: statusOfPhase(ramp.currentPhase as RampPhase),
      walletAddress: ramp.walletAddress,
      sessionId: ramp.sessionId,
      fiatAccountId: ramp.fiatAccountId,
      paymentInstructions:
        ramp.type === "BUY"
          ? this.provider.paymentInstructions({
              id: ramp.id,
              paymentMethod: quote.paymentMethod,
              inputAmount: quote.inputAmount,
              inputCurrency: quote.inputCurrency,
              partnerPayment: ramp.partnerPayment ? (JSON.parse(ramp.partnerPayment) as PaymentInstructions) : null,
            })
          : null,
      depositQrCode: ramp.depositQrCode,
      unsignedTxs: JSON.parse(ramp.unsignedTxs) as Record<string, unknown>[],
      transactionHash: ramp.transactionHash,
      transactionExplorerLink: ramp.transactionHash ? explorerLink(quote.network, ramp.transactionHash) : null,
      expiresAt: ramp.startDeadline,
      startedAt: ramp.startedAt,
      createdAt: ramp.createdAt,
      updatedAt: ramp.updatedAt,
      ...quoteTerms(quote),
    };
  }
}

/** The fields outbox events describe a ramp with. */
export function eventRamp(ramp: RampRow) {
  const currentPhase = ramp.currentPhase as RampPhase;
  return {
    id: ramp.id,
    quoteId: ramp.quoteId,
    sessionId: ramp.sessionId,
    type: ramp.type,
    status: statusOfPhase(currentPhase),
    currentPhase,
  };
}

function toErrorView(entry: {
  createdAt: Date;
  phase: string;
  error: string;
  details: string | null;
  recoverable: boolean;
}): RampErrorView {
  return {
    timestamp: entry.createdAt,
    phase: entry.phase as RampPhase,
    error: entry.error,
    details: entry.details,
    recoverable: entry.recoverable,
  };
}
