import type { Money } from "../money.js";
import type { Corridor, CustomerType, FiatSymbol } from "../reference-data/corridors.js";
import type { Network } from "../reference-data/catalog.js";
import type { BankAccountType, DomesticCountry, FiatAccountType } from "../reference-data/domestic.js";
import type { RampPhase } from "../reference-data/ramp-phases.js";

/*
 * The ports licensed partners plug in behind: each partner's adapter implements its part; the in-process sandbox
 * implements the ramp port for the corridors whose ramps no partner serves yet.
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
  corridor: Corridor;
  /** The subject's customer at the partner the ramp was registered with; null on the sandbox. */
  partnerCustomerId: string | null;
  /** The partner's order the ramp follows, once made; null on the sandbox. */
  partnerOrderId: string | null;
  /**
   * The same on every call for one step (ramp, phase, retries): a step whose answer was lost (a crash, a timeout)
   * is asked again, and the partner answers a repeated key as it did the first time.
   */
  stepKey: string;
  type: "BUY" | "SELL";
  currentPhase: RampPhase;
  inputAmount: string;
  inputCurrency: string;
  network: string;
  walletAddress: string | null;
  /** What a SELL's user signed (POST /v1/ramp/update), for a partner that pulls the tokens by it. */
  presignedTxs: readonly Record<string, unknown>[];
  /** Where a SELL paid out by PIX pays: the key the caller registered it with. */
  pixKey: string | null;
  /** Recoverable errors already met in the current phase. */
  retries: number;
}

/** The provider's answer for a ramp due for its next step. */
export type StepOutcome =
  /** `partnerOrderId`: the order this step made at the partner, stored on the ramp for the next steps to read. */
  | { kind: "advance"; phase: RampPhase; transactionHash?: string; partnerOrderId?: string }
  | { kind: "retry"; error: string; details: string }
  | { kind: "fail"; error: string; details: string };

export interface PaymentInstructions {
  method: string;
  amount: string;
  currency: string;
  reference: string;
  beneficiary: string;
  /** The account to pay into (a CLABE, a bank account number), where the partner names one. */
  account?: string;
}

/** What the provider is told of a ramp being registered. */
export interface RampToRegister {
  id: string;
  type: "BUY" | "SELL";
  corridor: Corridor;
  paymentMethod: string;
  network: string;
  walletAddress: string | null;
  inputAmount: string;
  inputCurrency: string;
  outputCurrency: string;
  /** The subject's customer at the corridor's partner (its approved KYC case's). */
  partnerCustomerId: string | null;
  /** A SELL's payout account, as the corridor's partner knows it (fiat-account corridors). */
  partnerPayoutAccountId: string | null;
  /** Where a SELL paid out by PIX pays: the caller's key (`additionalData.pixDestination`). */
  pixKey: string | null;
  /** Whom the caller says the PIX key's holder is (`additionalData.receiverTaxId`), checked against the partner's. */
  receiverTaxId: string | null;
}

/** What the provider hands out when a ramp is registered. */
export interface RampRegistration {
  /** What a SELL's user signs to send the tokens (none for BUY). */
  unsignedTxs: unknown[];
  /** A BUY's PIX BR Code (copy and paste), when the rail is PIX. */
  depositQrCode: string | null;
  /** The partner's order that moves the money; null on the sandbox. */
  partnerOrderId: string | null;
  /** How a BUY's payer pays, as the partner gave it (stored, then shown); null on the sandbox. */
  partnerPayment: PaymentInstructions | null;
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
  /**
   * Why a SELL cannot start with what its user signed (a field error's message), or null: what the partner needs
   * signed (an Avenia payout's permit) is checked before processing begins, not when the payout is sent.
   */
  presignedProblem(ramp: { corridor: Corridor; type: "BUY" | "SELL"; presignedTxs: readonly unknown[] }): string | null;
  /** How a BUY's user pays in fiat: what the partner gave at registration, or the sandbox's. */
  paymentInstructions(ramp: {
    id: string;
    paymentMethod: string;
    inputAmount: string;
    inputCurrency: string;
    partnerPayment: PaymentInstructions | null;
  }): PaymentInstructions;
  /** How long after a step the corridor's next one is asked for (a partner's order: when it is read again). */
  stepDelayMs(corridor: Corridor): number;
  /**
   * How long after the start the first step is due: a partner's order is read (or a BR SELL's payout sent) at the
   * next pass, since the start is when the caller says its part is done; the sandbox takes its step delay.
   */
  firstStepDelayMs(corridor: Corridor): number;
}

export const KYC_STATUSES = ["not_started", "pending", "in_review", "approved", "rejected"] as const;
/**
 * A subject's verification in a corridor: not_started (a customer, nothing submitted), pending (submitted,
 * not finished: information given, or the hosted flow opened), in_review (finished, awaiting the
 * provider's decision), approved, rejected.
 */
export type KycStatus = (typeof KYC_STATUSES)[number];

/** The partner's customer a KYC/KYB case is with. */
export interface KycCustomer {
  corridor: Corridor;
  customerType: CustomerType;
  /** The partner's id of the customer (Avenia's subaccount, Alfredpay's customer). */
  providerCustomerId: string;
  /** The email the customer was created with (a managed child's contact email); null when there was none. */
  contactEmail: string | null;
}

/**
 * What the partner says of an attempt, in our statuses: pending (opened, not finished), in_review, or decided.
 * `reason` says why it was rejected, for support only: never shown to callers.
 */
export interface KycObservation {
  status: Exclude<KycStatus, "not_started">;
  reason: string | null;
}

/** A file the subject sent us, handed to the partner as it is: its bytes and the media type they were declared as. */
export interface KycFileBytes {
  contentType: string;
  bytes: Buffer;
}

/** A document the subject uploaded for a BR attempt: its type (Avenia's names: ID, SELFIE, …) and each side. */
export interface KycDocument {
  documentType: string;
  front: KycFileBytes;
  back?: KycFileBytes;
  /** The partner holds the document already (a selfie taken by its liveness check): it is named, not sent again. */
  partnerDocumentId?: string;
}

/** A liveness check the partner opened for a selfie: its document there, its page, and its SDK's session token. */
export interface LivenessCheck {
  documentId: string;
  url: string;
  validationToken: string;
}

/** An individual's KYC form in AR, CO, MX or US (src/kyc/domestic.ts checks it): handed over, never stored here. */
export interface DomesticKycForm {
  country: Corridor;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  documentType?: string;
  documentNumber: string;
  colombianDocumentType?: "CC" | "CE";
  argentineDocumentType?: "DNI";
  cuit?: string;
  email?: string;
  phone?: string;
  countryCode?: string;
  nationalities?: string[];
  politicallyExposed?: boolean;
  address?: string;
  city?: string;
  state?: string;
  zipCode?: string;
}

/** A person a business declares in its KYB form (a legal representative, an owner). */
interface RelatedPersonForm {
  firstName: string;
  lastName: string;
  email: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  nationalities: string[];
  dni?: string;
  cpf?: string;
  pep?: boolean;
}

/** A business's KYB form in CO or MX. */
export interface DomesticKybForm {
  country: Corridor;
  businessName: string;
  taxId: string;
  address?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  website?: string;
  businessActivities?: string;
  accountPurpose?: string;
  sourceOfFunds?: string;
  relatedPersons?: RelatedPersonForm[];
  /** The partner's questionnaire: its wallets ("N/A" without), and how it handles customers' funds. */
  walletAddresses?: string;
  transmitsCustomerFunds?: boolean;
  conductsComplianceScreening?: boolean;
  complianceScreeningDescription?: string;
  operatesInSanctionedCountries?: boolean;
  isRegulatedBusiness?: boolean;
  expectedMonthlyVolumeUsd?: number;
  expectedMonthlyTransactions?: number;
}

/** An individual's BR level-1 KYC form (src/onboarding/brazil.ts checks it), its documents apart. */
export interface BrazilKycForm {
  fullName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** CPF digits. */
  taxIdNumber: string;
  countryOfTaxId: string;
  email: string;
  streetAddress: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/** An ultimate beneficial owner of a BR company, its documents apart: handed to the partner, never stored here. */
export interface BeneficialOwnerForm {
  fullName: string;
  dateOfBirth: string;
  countryOfTaxId: string;
  taxIdNumber: string;
  percentageOfOwnership: string;
  hasControl?: string;
  email?: string;
  phone?: string;
  documentCountry: string;
  streetLine1: string;
  streetLine2?: string;
  streetLine3?: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/** A BR company's level-1 KYB form, its documents and owners apart. */
export interface BrazilKybForm {
  companyLegalName: string;
  companyRegistrationNumber: string;
  taxIdentificationNumberTin: string;
  businessActivityDescription: string;
  reasonForAccountOpening: string;
  sourceOfFundsAndIncome: string;
  numberOfEmployees: string;
  estimatedAnnualRevenueUsd: string;
  estimatedMonthlyVolumeUsd: string;
  countryTaxResidence: string;
  countrySubdivisionTaxResidence?: string;
  companyStreetLine1: string;
  companyStreetLine2?: string;
  companyStreetLine3?: string;
  companyCity: string;
  companyState: string;
  companyZipCode: string;
  companyCountry: string;
  emailPixKey?: string;
  website?: string;
  socialMedia?: string;
  /** The caller asks the partner's sandbox to reject the attempt (the reference's `sandboxReject`). */
  sandboxReject?: boolean;
}

/** A hosted verification the partner opened: its attempt and its pages. */
export interface HostedKyc {
  attemptId: string;
  url: string;
  /** BR hosted KYB: the pages of its two parts (the legal representative's, the company's data). */
  representativeUrl?: string;
  companyDataUrl?: string;
}

/**
 * KYC and KYB at the partners. Every call goes to the partner over the network and is made outside any database
 * transaction; the partner's decision is never an answer to a call but an observation (`observe`, or its callback),
 * so a decision is applied the same way whichever way it arrives.
 */
export interface KycProvider {
  /** Creates the partner's customer (the BR subaccount, named `name`) and returns its id. */
  createCustomer(input: {
    corridor: Corridor;
    customerType: CustomerType;
    contactEmail: string | null;
    name: string | null;
  }): Promise<string>;
  /**
   * AR/CO/MX/US API KYC or KYB: hands the form over and opens the attempt, which takes files until it is sent. A KYB
   * form's related persons get the partner's ids, in the form's order (their documents are sent under them).
   */
  openSubmission(
    customer: KycCustomer,
    form: DomesticKycForm | DomesticKybForm,
  ): Promise<{ attemptId: string; relatedPersonIds: string[] }>;
  /** A file of an open submission (`fileType` in the reference's names), or of one of its related persons. */
  sendFile(
    customer: KycCustomer,
    attemptId: string,
    file: KycFileBytes & { fileType: string; relatedPersonId?: string },
  ): Promise<void>;
  /** Sends an open submission for review. */
  sendSubmission(customer: KycCustomer, attemptId: string): Promise<void>;
  /** Opens a hosted verification (AR/CO/MX/US KYC and KYB, BR KYB). */
  startHostedFlow(customer: KycCustomer): Promise<HostedKyc>;
  /** BR individual level 1, sent for review at once: the attempt's id. */
  submitBrazilKyc(
    customer: KycCustomer,
    form: BrazilKycForm,
    documents: { identity: KycDocument; selfie: KycDocument },
  ): Promise<string>;
  /** BR individual level 1 from a KYC share token the customer holds (a secret): the attempt's id. */
  importKycToken(customer: KycCustomer, importToken: string): Promise<string>;
  /** Registers an ultimate beneficial owner of a BR company and returns the partner's id for it. */
  registerBeneficialOwner(
    customer: KycCustomer,
    owner: BeneficialOwnerForm,
    documents: { identification: KycDocument; selfie?: KycDocument },
  ): Promise<string>;
  /** BR company level 1 through the API, naming its owners by the partner's ids: the attempt's id. */
  submitBrazilKyb(
    customer: KycCustomer,
    form: BrazilKybForm,
    documents: { certificateOfIncorporation: KycDocument; taxIdentification: KycDocument },
    ownerIds: string[],
  ): Promise<string>;
  /** Where the partner's attempt stands now. */
  observe(customer: KycCustomer, attemptId: string, signal?: AbortSignal): Promise<KycObservation>;
  /** Opens a BR liveness check, whose capture is the customer's selfie at the partner. */
  startLiveness(customer: KycCustomer): Promise<LivenessCheck>;
}

/** An address given with a payout account: its bank's, or its beneficiary's. */
export interface AccountAddress {
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/**
 * A payout bank account as the rules of its rail accepted it (src/fiat-accounts/rules.ts), normalized: numbers as
 * digits only where a rule says so, strings trimmed, absent (or blank) fields left out rather than undefined.
 */
export interface FiatAccountDetails {
  country: DomesticCountry;
  type: FiatAccountType;
  accountNumber: string;
  accountName?: string;
  accountType?: BankAccountType;
  routingNumber?: string;
  accountBankCode?: string;
  documentType?: string;
  documentNumber?: string;
  isExternal: boolean;
  /** Present when any bank* field was given. */
  bank?: AccountAddress;
  /** Present when any beneficiary* field was given (always for US BANK_USA). */
  beneficiary?: AccountAddress;
}

/** The partner's customer whose payout accounts these are. */
export type FiatAccountOwner = Pick<KycCustomer, "corridor" | "providerCustomerId">;

/**
 * Payout accounts at the partner that pays out in their corridor: its offramps name the partner's id of the account,
 * and it checks the account is the customer's. Calls are made outside any database transaction.
 */
export interface FiatAccountRegistry {
  /** Registers the account for the customer; the partner's id of it. */
  register(owner: FiatAccountOwner, details: FiatAccountDetails): Promise<string>;
  /** Removes the account at the partner; one the partner no longer knows counts as removed. */
  remove(owner: FiatAccountOwner, partnerAccountId: string): Promise<void>;
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
