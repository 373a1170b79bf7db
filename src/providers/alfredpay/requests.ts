/*
 * The KYC, KYB and fiat-account bodies we send Alfredpay (partners-wire-facts §2.2, §4.2). Fields Alfredpay requires
 * but a subject's form may lack are optional here: what the form lacks is not sent, and Alfredpay refuses the form
 * naming it (110002).
 */

export interface KycSubmission {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  email?: string;
  country: string;
  /** Required by Alfredpay, as are state, zipCode and address. */
  city?: string;
  state?: string;
  zipCode?: string;
  address?: string;
  /** MX: the CURP; AR: the DNI. */
  dni: string;
  typeDocument?: "INE" | "Resident card" | "passport";
  typeDocumentCol?: "CC" | "CE";
  phoneNumber?: string;
  countryCode?: string;
  nationalities?: string[];
  pep?: boolean;
  cuit?: string;
}

interface RelatedPerson {
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
  nationalities: string[];
  dni?: string;
  cpf?: string;
  pep?: boolean;
}

/** Alfredpay requires every field but the two the questionnaire asks for only conditionally. */
export interface KybSubmission {
  businessName: string;
  taxId: string;
  country: string;
  address?: string;
  state?: string;
  city?: string;
  zipCode?: string;
  website?: string;
  relatedPersons: RelatedPerson[];
  /** "N/A" when the business has none. */
  walletAddresses?: string;
  sourceOfFunds?: string;
  transmitsCustomerFunds?: boolean;
  /** Required when transmitsCustomerFunds. */
  conductsComplianceScreening?: boolean;
  /** Required when conductsComplianceScreening. */
  complianceScreeningDescription?: string;
  operatesInSanctionedCountries?: boolean;
  isRegulatedBusiness?: boolean;
  businessActivities?: string;
  accountPurpose?: string;
  expectedMonthlyVolumeUsd?: number;
  expectedMonthlyTransactions?: number;
}

/** A US bank's address, as BANK_USA takes it: beside the account, or inside `metadata` for an external one. */
interface BankAddress {
  bankStreet?: string;
  bankCity?: string;
  /** Upper case. */
  bankState?: string;
  bankPostalCode?: string;
  bankCountry?: string;
}

/**
 * Rail-specific (partners-wire-facts §2.2): SPEI `{accountNumber: CLABE, accountType: "CLABE", metadata:
 * {accountHolderName}}`, and so on; src/providers/alfredpay/fiat-accounts.ts says which rail gets what.
 */
export interface FiatAccountFields extends BankAddress {
  accountNumber: string;
  accountType: string;
  /** Colombian ACH: the bank's code; US accounts: the bank's name. */
  accountName?: string;
  routingNumber?: string;
  metadata?: BankAddress & {
    accountHolderName?: string;
    documentType?: string;
    documentNumber?: string;
    /** An external US account's beneficiary. */
    beneficiaryAddress?: {
      street?: string;
      city?: string;
      /** Upper case. */
      stateProvince?: string;
      postalCode?: string;
      country?: string;
    };
  };
}
