/* The bodies we send Avenia for KYC and KYB (partners-wire-facts §4.1); amounts are decimal strings. */

import type { BeneficialOwnerForm, BrazilKycForm } from "../kyc-port.js";

/**
 * Our BR forms are Avenia's level-1 bodies under Avenia's own names (src/onboarding/brazil.ts mirrors them), so each
 * body is its form with the ids Avenia gave the documents.
 */
export type IndividualKycLevel1 = BrazilKycForm & {
  subAccountId: string;
  uploadedSelfieId: string;
  uploadedDocumentId: string;
};

type AccountOpeningReason =
  | "charitable_donations"
  | "ecommerce_retail_payments"
  | "investment_purposes"
  | "other"
  | "payments_to_friends_or_family_abroad"
  | "payroll"
  | "personal_or_living_expenses"
  | "protect_wealth"
  | "purchase_goods_and_services"
  | "receive_payments_for_goods_and_services"
  | "tax_optimization"
  | "third_party_money_transmission"
  | "treasury_management";

type SourceOfFunds =
  | "business_loans"
  | "grants"
  | "inter_company_funds"
  | "investment_proceeds"
  | "legal_settlement"
  | "owners_capital"
  | "pension_retirement"
  | "sale_of_assets"
  | "sales_of_goods_and_services"
  | "third_party_funds"
  | "treasury_reserves";

export interface CompanyKycLevel1 {
  uboIds: string[];
  companyLegalName: string;
  companyRegistrationNumber: string;
  taxIdentificationNumberTin: string;
  businessActivityDescription: string;
  reasonForAccountOpening: AccountOpeningReason;
  sourceOfFundsAndIncome: SourceOfFunds;
  numberOfEmployees: "1-10" | "11-50" | "51-200" | "201-500" | "501-1000" | "1001+";
  estimatedAnnualRevenueUsd:
    "less_than_100k" | "100k_to_1m" | "1m_to_10m" | "10m_to_50m" | "50m_to_100m" | "more_than_100m";
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
  certificateOfIncorporationDocumentId: string;
  taxIdentificationDocumentId: string;
  website?: string;
  socialMedia?: string;
  emailPixKey?: string;
  /** Honoured by the sandbox only: the submission is rejected. */
  sandboxReject?: boolean;
}

/** An owner as Avenia registers it: the form, with its documents' ids there (an ID-like one, a liveness selfie). */
export type UltimateBeneficialOwner = BeneficialOwnerForm & {
  uploadedIdentificationId: string;
  uploadedSelfieId?: string;
};
