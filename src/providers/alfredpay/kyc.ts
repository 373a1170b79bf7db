import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { AppError } from "../../errors.js";
import type { Corridor, CustomerType } from "../../reference-data/corridors.js";
import { PartnerError } from "../http/partner-http.js";
import type {
  DomesticKybForm,
  DomesticKycForm,
  HostedKyc,
  KycCustomer,
  KycFileBytes,
  KycObservation,
} from "../kyc-port.js";
import type { AlfredpayKycCalls } from "../partner-kyc.js";
import type { AlfredpayClient, KycFileType, RelatedPersonFileType, SubmissionFile } from "./client.js";
import type { KybSubmission, KycSubmission } from "./requests.js";
import type { verificationStatus } from "./schemas.js";

const KYC_FILE_TYPES: readonly KycFileType[] = ["National ID Front", "National ID Back", "Selfie"];
const RELATED_PERSON_FILE_TYPES: readonly RelatedPersonFileType[] = ["docFront", "docBack"];
/** Alfredpay's `typeDocument` names Mexican documents only (partners-wire-facts §4.2). */
const MEXICAN_DOCUMENT_TYPES = ["INE", "Resident card", "passport"] as const;

/**
 * KYC and KYB at Alfredpay. A customer's type says which of Alfredpay's twin routes (kyc, kyb) its attempts take.
 * Partner errors propagate as the client raised them; nothing here logs.
 */
export class AlfredpayKyc implements AlfredpayKycCalls {
  constructor(private readonly client: AlfredpayClient) {}

  async createCustomer(input: {
    corridor: Corridor;
    customerType: CustomerType;
    contactEmail: string | null;
  }): Promise<string> {
    const { customerId } = await this.client.createCustomer({
      country: input.corridor,
      email: input.contactEmail ?? emailStandIn(),
      type: input.customerType === "business" ? "BUSINESS" : "INDIVIDUAL",
    });
    return customerId;
  }

  async openSubmission(
    customer: KycCustomer,
    form: DomesticKycForm | DomesticKybForm,
  ): Promise<{ attemptId: string; relatedPersonIds: string[] }> {
    if ("businessName" in form) return this.openKyb(customer.providerCustomerId, form);
    const { submissionId } = await this.client.submitKycForm(customer.providerCustomerId, kycSubmission(form));
    return { attemptId: submissionId, relatedPersonIds: [] };
  }

  async sendFile(
    customer: KycCustomer,
    attemptId: string,
    file: KycFileBytes & { fileType: string; relatedPersonId?: string },
  ): Promise<void> {
    const customerId = customer.providerCustomerId;
    const upload = {
      fileType: file.fileType,
      fileName: fileName(file.fileType, file.contentType),
      contentType: file.contentType,
      bytes: file.bytes,
    };
    if (file.relatedPersonId !== undefined)
      return this.client.uploadRelatedPersonFile(
        customerId,
        file.relatedPersonId,
        fileOfType(upload, RELATED_PERSON_FILE_TYPES),
      );
    if (customer.customerType === "business") return this.client.uploadKybFile(customerId, attemptId, upload);
    return this.client.uploadKycFile(customerId, attemptId, fileOfType(upload, KYC_FILE_TYPES));
  }

  sendSubmission(customer: KycCustomer, attemptId: string): Promise<void> {
    return customer.customerType === "business"
      ? this.client.finishKybSubmission(customer.providerCustomerId, attemptId)
      : this.client.finishKycSubmission(customer.providerCustomerId, attemptId);
  }

  async startHostedFlow(customer: KycCustomer): Promise<HostedKyc> {
    const customerId = customer.providerCustomerId;
    const link =
      customer.customerType === "business"
        ? await this.client.kybUrl(customerId)
        : // Alfredpay names the US by three letters here, and every other country by two.
          await this.client.kycUrl(customerId, customer.corridor === "US" ? "USA" : customer.corridor);
    return { attemptId: link.submissionId, url: link.verification_url };
  }

  async observe(customer: KycCustomer, attemptId: string): Promise<KycObservation> {
    const answer =
      customer.customerType === "business"
        ? await this.client.kybStatus(customer.providerCustomerId, attemptId)
        : await this.client.kycStatus(customer.providerCustomerId, attemptId);
    return kycObservation(answer);
  }

  /**
   * Alfredpay answers a KYB form with its id only: the related persons' ids are read from the details of the
   * customer's KYB forms, in the order the form declared them (checked by name where the details give it).
   */
  private async openKyb(customerId: string, form: DomesticKybForm) {
    const persons = form.relatedPersons ?? [];
    const { submissionId } = await this.client.submitKybForm(customerId, kybSubmission(form));
    if (persons.length === 0) return { attemptId: submissionId, relatedPersonIds: [] };
    const details = await this.client.kybDetails(customerId);
    const declared = details.find((entry) => entry.submissionId === submissionId)?.relatedPersons ?? [];
    const inFormOrder =
      declared.length === persons.length &&
      declared.every(
        (person, index) =>
          (person.firstName === undefined || person.firstName === persons[index].firstName) &&
          (person.lastName === undefined || person.lastName === persons[index].lastName),
      );
    // A document sent under another person's id would identify the wrong person: better no ids than those.
    if (!inFormOrder)
      throw new PartnerError(
        "Alfredpay",
        "unknown",
        null,
        "related-persons-unmatched",
        "The partner's KYB details do not list the form's related persons.",
      );
    return { attemptId: submissionId, relatedPersonIds: declared.map((person) => person.idRelatedPerson) };
  }
}

/**
 * Alfredpay requires an email, and every subject has one (a direct profile's login email, a managed child's contact
 * email): this stands in should one have none. It is unique, so two subjects without one are never merged into one
 * partner customer (Alfredpay knows a customer by email and country), and reserved (RFC 2606), so nothing is sent
 * to it. A creation asked again then makes a second customer rather than finding the first.
 */
function emailStandIn(): string {
  return `no-email+${randomUUID()}@ramp-gateway.invalid`;
}

/** Our form under Alfredpay's names; fields the subject left out are not sent (JSON drops undefined). */
function kycSubmission(form: DomesticKycForm): KycSubmission {
  return {
    firstName: form.firstName,
    lastName: form.lastName,
    dateOfBirth: form.dateOfBirth,
    email: form.email,
    country: form.country,
    city: form.city,
    state: form.state,
    zipCode: form.zipCode,
    address: form.address,
    dni: form.documentNumber,
    typeDocument: form.country === "MX" ? mexicanDocumentType(form.documentType) : undefined,
    typeDocumentCol: form.colombianDocumentType,
    // argentineDocumentType is not sent: its one value, DNI, is what `dni` is in AR, and Alfredpay refuses
    // typeDocumentAr (partners-wire-facts §4.2).
    phoneNumber: form.phone,
    countryCode: form.countryCode,
    nationalities: form.nationalities,
    pep: form.politicallyExposed,
    cuit: form.cuit,
  };
}

/** Alfredpay's spelling of the document type, when it is one Alfredpay knows (it is optional there: dni identifies). */
function mexicanDocumentType(documentType: string | undefined) {
  return MEXICAN_DOCUMENT_TYPES.find((known) => known.toLowerCase() === documentType?.toLowerCase());
}

/** The form under Alfredpay's names; an answer the caller left out is left out (Alfredpay refuses the form then). */
function kybSubmission(form: DomesticKybForm): KybSubmission {
  return {
    businessName: form.businessName,
    taxId: form.taxId,
    country: form.country,
    address: form.address,
    state: form.state,
    city: form.city,
    zipCode: form.zipCode,
    website: form.website,
    relatedPersons: form.relatedPersons ?? [],
    sourceOfFunds: form.sourceOfFunds,
    businessActivities: form.businessActivities,
    accountPurpose: form.accountPurpose,
    walletAddresses: form.walletAddresses,
    transmitsCustomerFunds: form.transmitsCustomerFunds,
    conductsComplianceScreening: form.conductsComplianceScreening,
    complianceScreeningDescription: form.complianceScreeningDescription,
    operatesInSanctionedCountries: form.operatesInSanctionedCountries,
    isRegulatedBusiness: form.isRegulatedBusiness,
    expectedMonthlyVolumeUsd: form.expectedMonthlyVolumeUsd,
    expectedMonthlyTransactions: form.expectedMonthlyTransactions,
  };
}

/** An ASCII name Alfredpay takes, from the file's type and media type: `National-ID-Front.jpeg`. */
function fileName(fileType: string, contentType: string): string {
  const stem = fileType.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "file";
  const subtype = contentType.split(";")[0].split("/")[1] ?? "";
  const extension = subtype.toLowerCase().replace(/[^a-z0-9]/g, "") || "bin";
  return `${stem}.${extension}`;
}

/** The file, as one of the types the upload takes; another type is the caller's error. */
function fileOfType<FileType extends string>(
  file: SubmissionFile<string>,
  fileTypes: readonly FileType[],
): SubmissionFile<FileType> {
  const fileType = fileTypes.find((known) => known === file.fileType);
  if (fileType === undefined)
    throw new AppError("VALIDATION_FAILED", undefined, [
      { field: "fileType", message: `must be one of ${fileTypes.join(", ")}` },
    ]);
  return { ...file, fileType };
}

/**
 * Alfredpay's status of a KYC or KYB submission in ours (the same statuses for both; the case may vary). An
 * unknown status is not guessed at: the error says so, and the caller asks again later.
 */
export function kycObservation(answer: z.infer<typeof verificationStatus>): KycObservation {
  const metadata = answer.metadata;
  switch (answer.status.toUpperCase()) {
    case "CREATED":
    case "PENDING":
      return { status: "pending", reason: null };
    case "IN_REVIEW":
      return { status: "in_review", reason: null };
    case "COMPLETED":
      return { status: "approved", reason: null };
    case "FAILED":
      return { status: "rejected", reason: metadata?.failureReason ?? null };
    case "UPDATE_REQUIRED": {
      const fields = metadata?.requiredFields?.length ? `: ${metadata.requiredFields.join(", ")}` : "";
      const partnerWords = metadata?.failureReason ? ` (${metadata.failureReason})` : "";
      return { status: "pending", reason: `Alfredpay asks for an update${fields}${partnerWords}` };
    }
    default:
      throw new PartnerError(
        "Alfredpay",
        "unknown",
        null,
        "unknown-kyc-status",
        `The partner answered a verification status we do not know (${JSON.stringify(answer.status.slice(0, 40))}).`,
      );
  }
}
