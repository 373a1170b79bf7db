import type { Corridor, CustomerType } from "../reference-data/corridors.js";
import { describedEnum, screamingCase } from "../enums.js";

/*
 * The KYC port: what the KYC/KYB flows hand a corridor's partner (customers, forms, files) and what they read back
 * (attempts, observations); each partner's adapter implements `KycProvider` for the corridors it serves.
 */

export const KYC_STATUSES = ["not_started", "pending", "in_review", "approved", "rejected"] as const;

describedEnum("KycCaseStatus", KYC_STATUSES, {
  description: "A KYC/KYB case: IN_REVIEW once finished and awaiting the provider's decision.",
  graphqlName: screamingCase,
  meanings: {
    not_started: "The provider customer exists; nothing was submitted.",
    pending: "Submitted but not finished: information given, or the hosted flow opened.",
    in_review: "Finished and awaiting the provider's decision.",
    approved: "The provider approved the case.",
    rejected: "The provider rejected the case.",
  },
});

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
