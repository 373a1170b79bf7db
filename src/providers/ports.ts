import type { Money } from "../money.js";
import type { Corridor, CustomerType, FiatSymbol } from "../reference-data/corridors.js";
import type { Network } from "../reference-data/catalog.js";
import type { RampPhase } from "../reference-data/ramp-phases.js";

/*
 * The ports licensed partners plug in behind. The sandbox provider implements them deterministically;
 * a real partner adapter implements the same interfaces.
 */

/** A snapshot of the prices a quote is computed from. */
export interface MarketTerms {
  /** Units of the fiat one US dollar buys. */
  fiatPerUsd(fiat: FiatSymbol): Money;
  /** US dollars one unit of the token is worth. */
  usdPerToken(symbol: string): Money;
  /** What moving the token on the network costs, in US dollars. */
  networkFeeUsd(network: Network): Money;
  /** The rail's (anchor's) charge in the fiat: a fixed part plus a rate of the fiat amount. */
  railFee(fiat: FiatSymbol): { fixed: Money; rate: Money };
}

/** What the provider needs to know about a ramp to move it on. */
export interface ProviderRamp {
  id: string;
  /**
   * The same on every call for one step (ramp, phase, retries): a step whose answer was lost (a crash, a timeout)
   * is asked again, and the partner answers a repeated key as it did the first time.
   */
  stepKey: string;
  type: "BUY" | "SELL";
  currentPhase: RampPhase;
  inputAmount: string;
  network: string;
  walletAddress: string | null;
  /** Recoverable errors already met in the current phase. */
  retries: number;
}

/** The provider's answer for a ramp due for its next step. */
export type StepOutcome =
  | { kind: "advance"; phase: RampPhase; transactionHash?: string }
  | { kind: "retry"; error: string; details: string }
  | { kind: "fail"; error: string; details: string };

export interface PaymentInstructions {
  method: string;
  amount: string;
  currency: string;
  reference: string;
  beneficiary: string;
}

/** What the provider is told of a ramp being registered. */
export interface RampToRegister {
  id: string;
  type: "BUY" | "SELL";
  paymentMethod: string;
  network: string;
  walletAddress: string | null;
  inputAmount: string;
}

/** What the provider hands out when a ramp is registered. */
export interface RampRegistration {
  /** What a SELL's user signs to send the tokens (none for BUY). */
  unsignedTxs: unknown[];
  /** A BUY's PIX BR Code (copy and paste), when the rail is PIX. */
  depositQrCode: string | null;
}

/**
 * The partner's calls return promises and are never made inside a database transaction; the synchronous members
 * are facts of the partner's rails that an adapter knows without a call.
 */
export interface RampProvider {
  marketTerms(): Promise<MarketTerms>;
  /** Made once, before the ramp is stored: the ramp is stored only if its quote is still unconsumed then. */
  register(ramp: RampToRegister): Promise<RampRegistration>;
  /**
   * The next step of a started ramp. `signal` aborts when the processor stops waiting (its timeout, or shutdown);
   * the step is then asked again later with the same `stepKey`.
   */
  step(ramp: ProviderRamp, signal: AbortSignal): Promise<StepOutcome>;
  /** How a BUY's user pays in fiat. */
  paymentInstructions(ramp: {
    id: string;
    paymentMethod: string;
    inputAmount: string;
    inputCurrency: string;
  }): PaymentInstructions;
  /** How long the provider takes between steps. */
  readonly stepDelayMs: number;
  /** The monthly ceiling per corridor and direction, in the corridor's fiat. */
  monthlyLimit(corridor: Corridor, direction: "BUY" | "SELL"): string;
  explorerLink(network: string, transactionHash: string): string | null;
}

export const KYC_STATUSES = ["not_started", "pending", "in_review", "approved", "rejected"] as const;
/**
 * A subject's verification in a corridor: not_started (a customer, nothing submitted), pending (submitted,
 * not finished: information given, or the hosted flow opened), in_review (finished, awaiting the
 * provider's decision), approved, rejected.
 */
export type KycStatus = (typeof KYC_STATUSES)[number];

/** An attempt handed to the provider for a decision. Documents and personal data stay with the provider. */
export interface KycSubmission {
  corridor: Corridor;
  customerType: CustomerType;
  method: "api" | "redirect" | "token_import";
  /** The email the provider customer was created with (a managed child's contact email). */
  contactEmail: string | null;
  /** The names an API submission gave (none for hosted flows). */
  names: string[];
  /** The full names of the persons an API KYB submission declares (legal representatives, owners), in order. */
  relatedPersons: string[];
  /** The provider's ids of the beneficial owners a BR API KYB submission names (registerBeneficialOwner). */
  beneficialOwnerIds?: string[];
  /** The caller asked a sandbox to reject the attempt (the reference's `sandboxReject`); live partners ignore it. */
  rejectionRequested?: boolean;
}

/** An ultimate beneficial owner of a company customer, handed to the provider and never stored here. */
export interface BeneficialOwnerToRegister {
  /** The company's provider customer (the BR subaccount). */
  customerId: string;
  fullName: string;
  /** The rest of what the caller gave about the person (birth date, tax id, address, ownership), by field. */
  details: Readonly<Record<string, string>>;
}

/** The provider's decision on an attempt, which takes effect after `decideAfterMs`. */
export interface KycDecision {
  outcome: "approved" | "rejected";
  /** Why, for support: never shown to callers. */
  reason: string | null;
  decideAfterMs: number;
  /** The provider's id of each related person of the submission, in its order: their documents name them. */
  relatedPersonIds: string[];
}

export interface KycProvider {
  /** Creates the provider's customer (the BR subaccount) and returns its id. */
  createCustomer(input: {
    corridor: Corridor;
    customerType: CustomerType;
    contactEmail: string | null;
  }): Promise<string>;
  submit(submission: KycSubmission): Promise<KycDecision>;
  /** Registers an ultimate beneficial owner of a company customer (KYB) and returns the provider's id for it. */
  registerBeneficialOwner(owner: BeneficialOwnerToRegister): Promise<string>;
  /** The hosted verification page of an attempt (redirect flows, hosted KYB). */
  hostedFlowUrl(attemptId: string, customerType: CustomerType): string;
  /** The liveness check that goes with a selfie: its hosted page, and the token its SDK validates the session with. */
  livenessCheck(selfieId: string): { url: string; validationToken: string };
}

/** What a partner's callback says, read from its envelope: which object changed, to which status, and whose it is. */
export interface PartnerCallbackFacts {
  /** ticket or kycAttempt (Avenia); onramp, offramp, kyc or kyb (Alfredpay). */
  subjectKind: string;
  /** The partner's id of the object (a ticket or attempt id, a transactionId or submissionId). */
  subjectId: string;
  /** Its status, as the partner wrote it. */
  partnerStatus: string;
  /** The partner's customer the object belongs to (Avenia's subaccount, Alfredpay's customerId). */
  partnerCustomerId: string;
  /** When the partner last changed the object, where the callback's freshness rests on it (Avenia signs no time). */
  updatedAt?: string;
}
