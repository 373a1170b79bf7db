import { request } from "undici";
import { deadline } from "../../deadline.js";
import { kindOfStatus, PartnerError, TIMED_OUT, transportFailure } from "../http/partner-http.js";
import type {
  BeneficialOwnerForm,
  BrazilKybForm,
  BrazilKycForm,
  HostedKyc,
  KycCustomer,
  KycDocument,
  KycFileBytes,
  KycObservation,
  KycProvider,
  LivenessCheck,
} from "../kyc-port.js";
import type { AveniaKycCalls } from "../partner-kyc.js";
import type { AveniaClient, AveniaDocumentType } from "./client.js";
import type { CompanyKycLevel1 } from "./requests.js";

const PARTNER = "Avenia";
/** A document is up to 10 MB (src/uploads/service.ts): more time than an API call's default. */
const DEFAULT_UPLOAD_TIMEOUT_MS = 30_000;
/** An upload's answer is empty or a short error: it is read to this bound and dropped, never kept. */
const MAX_UPLOAD_ANSWER_BYTES = 64 * 1024;

/**
 * The document types each part of a form takes, in Avenia's names (partners-wire-facts §4.1), which are ours too
 * (BRAZIL_DOCUMENT_TYPES). A selfie whose liveness check Avenia ran is named by its SELFIE-FROM-LIVENESS document;
 * one without goes as SELFIE, with the bytes we hold (a liveness document takes no upload).
 */
const DOCUMENT_TYPES_OF = {
  identity: ["ID", "DRIVERS-LICENSE", "PASSPORT", "RESIDENCE-PERMIT"],
  selfie: ["SELFIE", "SELFIE-FROM-LIVENESS"],
  certificateOfIncorporation: ["CERTIFICATE-OF-INCORPORATION"],
  taxIdentification: ["COMPANY-TAX-IDENTIFICATION-DOCUMENT"],
} as const satisfies Record<string, readonly AveniaDocumentType[]>;

/** A document checked, before any call, against the part of the form it is for; with the type Avenia gets. */
interface CheckedDocument {
  sentAs: AveniaDocumentType;
  document: KycDocument;
}

function checkedDocument(role: keyof typeof DOCUMENT_TYPES_OF, document: KycDocument): CheckedDocument {
  const accepted: readonly AveniaDocumentType[] = DOCUMENT_TYPES_OF[role];
  const documentType = accepted.find((type) => type === document.documentType);
  if (documentType === undefined) throw new Error(`The ${role} part takes no ${document.documentType} document`);
  return { sentAs: role === "selfie" ? "SELFIE" : documentType, document };
}

/** What an expired attempt is rejected with: Avenia lets the customer start over with a new attempt. */
export const EXPIRED_REASON = "The attempt expired before a decision; a new attempt starts the verification anew.";

/** Avenia's attempt, in our statuses (facts §1.3); a status or result we do not know is an error, never a guess. */
export function observationOf(attempt: {
  status: string;
  result?: string | null;
  resultMessage?: string | null;
}): KycObservation {
  if (attempt.status === "PENDING") return { status: "pending", reason: null };
  if (attempt.status === "PROCESSING") return { status: "in_review", reason: null };
  if (attempt.status === "EXPIRED") return { status: "rejected", reason: EXPIRED_REASON };
  if (attempt.status === "COMPLETED" && attempt.result === "APPROVED") return { status: "approved", reason: null };
  if (attempt.status === "COMPLETED" && attempt.result === "REJECTED")
    return { status: "rejected", reason: attempt.resultMessage ?? null };
  throw new PartnerError(PARTNER, "unknown", null, "unknown-attempt-status");
}

/**
 * The BR half of the KYC port at Avenia: the customer is a subaccount, documents are created at Avenia and their
 * bytes PUT to its pre-signed upload URLs, and level 1 is submitted by API, from a share token, or hosted (KYB).
 */
export class AveniaKyc implements AveniaKycCalls {
  private readonly uploadTimeoutMs: number;

  constructor(
    private readonly client: AveniaClient,
    options: { uploadTimeoutMs?: number } = {},
  ) {
    this.uploadTimeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  }

  async createCustomer({ customerType, name }: Parameters<KycProvider["createCustomer"]>[0]): Promise<string> {
    if (name === null) throw new Error("An Avenia subaccount is created with a name");
    const accountType = customerType === "business" ? "COMPANY" : "INDIVIDUAL";
    return (await this.client.createSubAccount({ accountType, name })).id;
  }

  async submitBrazilKyc(
    customer: KycCustomer,
    form: BrazilKycForm,
    { identity, selfie }: { identity: KycDocument; selfie: KycDocument },
  ): Promise<string> {
    const subAccountId = customer.providerCustomerId;
    const [uploadedDocumentId, uploadedSelfieId] = await this.forwardDocuments(subAccountId, [
      checkedDocument("identity", identity),
      checkedDocument("selfie", selfie),
    ]);
    const fields = { subAccountId, ...form, uploadedSelfieId, uploadedDocumentId };
    return (await this.client.submitKycLevel1(subAccountId, fields)).id;
  }

  async importKycToken(customer: KycCustomer, importToken: string): Promise<string> {
    return (await this.client.importKycToken(customer.providerCustomerId, importToken)).id;
  }

  async registerBeneficialOwner(
    customer: KycCustomer,
    owner: BeneficialOwnerForm,
    { identification, selfie }: { identification: KycDocument; selfie?: KycDocument },
  ): Promise<string> {
    const subAccountId = customer.providerCustomerId;
    const [uploadedIdentificationId, uploadedSelfieId] = await this.forwardDocuments(subAccountId, [
      checkedDocument("identity", identification),
      ...(selfie ? [checkedDocument("selfie", selfie)] : []),
    ]);
    return (await this.client.createUbo(subAccountId, { ...owner, uploadedIdentificationId, uploadedSelfieId })).id;
  }

  async submitBrazilKyb(
    customer: KycCustomer,
    form: BrazilKybForm,
    documents: { certificateOfIncorporation: KycDocument; taxIdentification: KycDocument },
    ownerIds: string[],
  ): Promise<string> {
    const subAccountId = customer.providerCustomerId;
    const [certificateOfIncorporationDocumentId, taxIdentificationDocumentId] = await this.forwardDocuments(
      subAccountId,
      [
        checkedDocument("certificateOfIncorporation", documents.certificateOfIncorporation),
        checkedDocument("taxIdentification", documents.taxIdentification),
      ],
    );
    // The port carries the form's enumerations as strings; src/onboarding/brazil.ts checked them against Avenia's.
    const checked = form as BrazilKybForm &
      Pick<
        CompanyKycLevel1,
        "reasonForAccountOpening" | "sourceOfFundsAndIncome" | "numberOfEmployees" | "estimatedAnnualRevenueUsd"
      >;
    const fields = { ...checked, uboIds: ownerIds, certificateOfIncorporationDocumentId, taxIdentificationDocumentId };
    return (await this.client.submitKycLevel1(subAccountId, fields)).id;
  }

  /** Avenia hosts a company's level 1 only, in two parts: its legal representative's, then the company's data. */
  async startHostedFlow(customer: KycCustomer): Promise<HostedKyc> {
    if (customer.customerType !== "business") throw new Error("Avenia hosts KYB only; an individual's goes by API");
    const started = await this.client.startKybWebSdk(customer.providerCustomerId);
    return {
      attemptId: started.attemptId,
      url: started.authorizedRepresentativeUrl,
      representativeUrl: started.authorizedRepresentativeUrl,
      companyDataUrl: started.basicCompanyDataUrl,
    };
  }

  /** A SELFIE-FROM-LIVENESS document: Avenia answers its liveness page and session token instead of upload URLs. */
  async startLiveness(customer: KycCustomer): Promise<LivenessCheck> {
    const created = await this.client.createDocument(customer.providerCustomerId, {
      documentType: "SELFIE-FROM-LIVENESS",
      isDoubleSided: false,
    });
    if (!("livenessUrl" in created)) throw new PartnerError(PARTNER, "unknown", null, "unexpected-body");
    return { documentId: created.id, url: created.livenessUrl, validationToken: created.validateLivenessToken };
  }

  async observe(customer: KycCustomer, attemptId: string): Promise<KycObservation> {
    return observationOf(await this.client.kycAttempt(customer.providerCustomerId, attemptId));
  }

  /**
   * Creates each document at Avenia and uploads each side's bytes, one after the other, so a submission that fails
   * leaves no call of its own running; answers Avenia's document ids, in order.
   */
  private async forwardDocuments(subAccountId: string, documents: CheckedDocument[]): Promise<string[]> {
    const ids: string[] = [];
    for (const document of documents) ids.push(await this.forwardDocument(subAccountId, document));
    return ids;
  }

  private async forwardDocument(subAccountId: string, { sentAs, document }: CheckedDocument): Promise<string> {
    if (document.partnerDocumentId !== undefined) return document.partnerDocumentId;
    const created = await this.client.createDocument(subAccountId, {
      documentType: sentAs,
      isDoubleSided: document.back !== undefined,
    });
    // Avenia answers upload URLs for every type we send; a liveness answer, or no back URL for a back, breaks that.
    if (!("uploadURLFront" in created) || (document.back && !created.uploadURLBack))
      throw new PartnerError(PARTNER, "unknown", null, "unexpected-body");
    await this.upload(created.uploadURLFront, document.front);
    if (document.back && created.uploadURLBack) await this.upload(created.uploadURLBack, document.back);
    return created.id;
  }

  /**
   * One PUT to a pre-signed URL (no Avenia credentials, possibly another host than the API's), not retried: a failed
   * upload fails the submission, which is made again from the start with new documents.
   */
  private async upload(url: string, file: KycFileBytes): Promise<void> {
    const attempt = deadline(this.uploadTimeoutMs);
    let status: number;
    try {
      const response = await request(url, {
        method: "PUT",
        headers: { "content-type": file.contentType },
        body: file.bytes,
        signal: attempt.signal,
      });
      status = response.statusCode;
      await response.body.dump({ limit: MAX_UPLOAD_ANSWER_BYTES });
    } catch (cause) {
      // The URL carries its signature: neither it nor the answer goes into the error.
      const { code, kind } = attempt.timedOut() ? TIMED_OUT : transportFailure(cause);
      throw new PartnerError(PARTNER, kind, null, `upload-${code}`);
    } finally {
      attempt.release();
    }
    if (status < 200 || status >= 300) throw new PartnerError(PARTNER, kindOfStatus(status), status, "upload-refused");
  }
}
