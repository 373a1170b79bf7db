import { z } from "zod";
import type { ActingContext } from "../auth/delegation.js";
import type { KycStatus } from "../providers/ports.js";
import type { CustomerType } from "../reference-data/corridors.js";
import { requestCountry, type CountrySources, type DomesticCountry } from "../reference-data/domestic.js";
import { parseInput } from "../validation.js";
import type { KycCaseRow } from "./repo.js";
import type { CaseKey, KycService } from "./service.js";

/** The reference's customer statuses for the domestic corridors. */
export type DomesticStatus =
  "CONSULTED" | "LINK_OPENED" | "USER_COMPLETED" | "VERIFYING" | "FAILED" | "SUCCESS" | "UPDATE_REQUIRED";

const name = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters");
const optionalText = z.string().trim().max(200, "must be at most 200 characters").optional();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)");
const country = z.string().optional();

/** An individual's KYC information: what the provider verifies. It is handed over, never stored here. */
export const kycInformation = z
  .object({
    country,
    firstName: name,
    lastName: name,
    dateOfBirth: date,
    documentType: z.string().trim().min(1).max(50),
    documentNumber: z.string().trim().min(1).max(50),
    email: z.email().optional(),
    phone: optionalText,
    address: optionalText,
    city: optionalText,
    state: optionalText,
    zipCode: optionalText,
    nationality: optionalText,
  })
  .strict();

/** A business's KYB information (CO and MX only in the reference). */
export const kybInformation = z
  .object({
    country,
    businessName: name,
    taxId: z.string().trim().min(1).max(50),
    address: optionalText,
    city: optionalText,
    state: optionalText,
    zipCode: optionalText,
    website: optionalText,
    businessActivities: optionalText,
    accountPurpose: optionalText,
    sourceOfFunds: optionalText,
  })
  .passthrough();

export /** Creating a provider customer names only its country (the path alias, query or body may). */
const customerInput = z.object({ country }).strict();
export const sendSubmissionInput = z.object({ country, submissionId: z.uuid("must be a submission id") }).strict();
export const customerTypeInput = z.object({ country, type: z.enum(["INDIVIDUAL", "BUSINESS"]).optional() }).strict();

/** The customer type a `type` (INDIVIDUAL, the default, or BUSINESS) names. */
const customerTypeOf = (type: "INDIVIDUAL" | "BUSINESS" | undefined): CustomerType =>
  type === "BUSINESS" ? "business" : "individual";

function domesticStatus(row: KycCaseRow): DomesticStatus {
  switch (row.status as KycStatus) {
    case "not_started":
      return "CONSULTED";
    case "pending":
      return row.method === "redirect" ? "LINK_OPENED" : "USER_COMPLETED";
    case "in_review":
      return "VERIFYING";
    case "approved":
      return "SUCCESS";
    case "rejected":
      return "FAILED";
  }
}

/**
 * Customers and KYC/KYB of the domestic corridors (AR, CO, MX, US) as the reference's `/v1/domestic/*`
 * operations: the country from the path alias, the query or the body (a conflict is 400), the customer
 * type from the operation or its `type`.
 */
export class DomesticOnboarding {
  constructor(private readonly kyc: KycService) {}

  async createCustomer(
    acting: ActingContext,
    customerType: CustomerType,
    sources: CountrySources,
  ): Promise<{ createdAt: Date }> {
    const corridor = requestCountry(sources);
    parseInput(customerInput, sources.body ?? {});
    const created = await this.kyc.createCustomer(acting, { corridor, customerType });
    return { createdAt: created.createdAt };
  }

  async submitKycInformation(acting: ActingContext, sources: CountrySources): Promise<{ submissionId: string }> {
    const key = { corridor: requestCountry(sources), customerType: "individual" as const };
    const form = parseInput(kycInformation, sources.body ?? {});
    return this.kyc.submitInformation(acting, key, [form.firstName, form.lastName]);
  }

  async submitKybInformation(acting: ActingContext, sources: CountrySources): Promise<{ submissionId: string }> {
    const key = { corridor: requestCountry(sources, ["CO", "MX"]), customerType: "business" as const };
    const form = parseInput(kybInformation, sources.body ?? {});
    return this.kyc.submitInformation(acting, key, [form.businessName]);
  }

  async sendSubmission(
    acting: ActingContext,
    customerType: CustomerType,
    sources: CountrySources,
  ): Promise<{ success: true }> {
    const corridor = requestCountry(sources);
    const { submissionId } = parseInput(sendSubmissionInput, sources.body ?? {});
    await this.kyc.sendSubmission(acting, { corridor, customerType }, submissionId);
    return { success: true };
  }

  async redirectLink(
    acting: ActingContext,
    customerType: CustomerType,
    sources: CountrySources,
  ): Promise<{ submissionId: string; verification_url: string }> {
    const link = await this.kyc.redirectLink(acting, { corridor: requestCountry(sources), customerType });
    return { submissionId: link.submissionId, verification_url: link.url };
  }

  async redirectOpened(acting: ActingContext, sources: CountrySources): Promise<{ success: true }> {
    await this.kyc.redirectOpened(acting, this.typedKey(sources));
    return { success: true };
  }

  async redirectFinished(acting: ActingContext, sources: CountrySources): Promise<{ success: true }> {
    await this.kyc.redirectFinished(acting, this.typedKey(sources));
    return { success: true };
  }

  async retry(
    acting: ActingContext,
    sources: CountrySources,
  ): Promise<{ submissionId: string; verification_url: string } | { success: true }> {
    const retried = await this.kyc.retry(acting, this.typedKey(sources));
    return "url" in retried ? { submissionId: retried.submissionId, verification_url: retried.url } : retried;
  }

  /** The latest status of the subject's KYC (or, with type BUSINESS, KYB) in the country. */
  async status(
    acting: ActingContext,
    sources: CountrySources,
  ): Promise<{
    alfred_pay_id: string;
    country: DomesticCountry;
    status: DomesticStatus;
    updated_at: Date;
    lastFailure?: string;
  }> {
    const key = this.typedKey(sources, "query");
    const row = await this.kyc.caseOf(acting, key);
    const status = domesticStatus(row);
    return {
      alfred_pay_id: row.providerCustomerId,
      country: key.corridor as DomesticCountry,
      status,
      updated_at: row.updatedAt,
      // Why a case failed stays with support; callers learn only that it did.
      ...(status === "FAILED" && { lastFailure: "The verification was not approved." }),
    };
  }

  /** The customer's onboarding state (alfredpayStatus). */
  async customerStatus(
    acting: ActingContext,
    sources: CountrySources,
  ): Promise<{ country: DomesticCountry; creationTime: Date; status: DomesticStatus }> {
    const key = this.typedKey(sources, "query");
    const row = await this.kyc.caseOf(acting, key);
    return { country: key.corridor as DomesticCountry, creationTime: row.createdAt, status: domesticStatus(row) };
  }

  /** The country and the customer type a `type` names, from the body (changes) or the query (reads). */
  private typedKey(sources: CountrySources, from: "body" | "query" = "body"): CaseKey {
    const corridor = requestCountry(sources);
    const { type } = parseInput(customerTypeInput, (from === "body" ? sources.body : sources.query) ?? {});
    return { corridor, customerType: customerTypeOf(type) };
  }
}
