import { waitFor } from "./kit.js";
import { rememberSecret } from "./secrets.js";
import type { TestApp } from "./app.js";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";

/**
 * One API call: method, path, headers and body in (JSON, or a file's bytes as they are under the headers'
 * Content-Type); status and parsed body out (in-process or over HTTP).
 */
export type Send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<{ status: number; body: any }>;

const checkDigit = (digits: number[], weights: number[]) => {
  const rest = digits.reduce((sum, digit, index) => sum + digit * weights[index]!, 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
};

/** A random valid CPF (11 digits, both check digits). */
export function randomCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  digits[0] = 1 + (digits[0]! % 9);
  digits.push(checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]));
  digits.push(checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]));
  // Personal data: the log audit proves it never reaches a log, as it does for secrets.
  return rememberSecret(digits.join(""));
}

/** A random valid CNPJ (14 digits, both check digits). */
export function randomCnpj(): string {
  const digits = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10));
  digits[0] = 1 + (digits[0]! % 9);
  digits.push(checkDigit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]));
  digits.push(checkDigit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]));
  return rememberSecret(digits.join(""));
}

/**
 * A BR level-1 KYC body (`POST /v1/brl/newKyc`) but for the subaccount, its tax id and the uploads it names
 * (uploadKycDocuments).
 */
export const LEVEL_ONE_KYC = {
  fullName: "Ana Souza",
  dateOfBirth: "1990-04-12",
  countryOfTaxId: "BR",
  email: "ana.souza@example.com",
  streetAddress: "Rua Augusta 100",
  city: "São Paulo",
  state: "SP",
  zipCode: "01304-000",
  country: "BR",
};
// Personal data the KYC journeys submit: the log audit proves none of it reaches a log, as for secrets.
for (const personal of [LEVEL_ONE_KYC.fullName, LEVEL_ONE_KYC.email, LEVEL_ONE_KYC.streetAddress])
  rememberSecret(personal);

async function expect2xx(send: Send, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await send(method, path, headers, body);
  if (response.status >= 300)
    throw new Error(`KYC step ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The smallest file an upload URL takes as image/jpeg: a JPEG's start of image and the end of it. */
export const JPEG_FILE = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);

/**
 * PUTs a file to an upload URL as an integrator's client does, without a credential: its path and query go to
 * the server `send` reaches (a test server's public address is not its own). The URL's token is a secret.
 */
export function uploadFile(
  send: Send,
  url: string,
  file: Buffer = JPEG_FILE,
  contentType = "image/jpeg",
): ReturnType<Send> {
  const { pathname, search, searchParams } = new URL(url);
  const token = searchParams.get("token");
  if (token) rememberSecret(token);
  return send("PUT", `${pathname}${search}`, { "content-type": contentType }, file);
}

/**
 * Uploads what level 1 KYC names for the individual subaccount with this tax id, as the acting headers: a
 * double-sided identity document and a selfie. Their ids, under newKyc's names.
 */
export async function uploadKycDocuments(
  send: Send,
  headers: Record<string, string>,
  taxId: string,
): Promise<{ uploadedDocumentId: string; uploadedSelfieId: string }> {
  const body = { taxId, documentType: "ID", isDoubleSided: true };
  const { idUpload, selfieUpload } = await expect2xx(send, "POST", "/v1/brl/getUploadUrls", headers, body);
  for (const url of [idUpload.uploadURLFront, idUpload.uploadURLBack, selfieUpload.uploadURLFront]) {
    const uploaded = await uploadFile(send, url);
    if (uploaded.status !== 204) throw new Error(`KYC upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  }
  return { uploadedDocumentId: idUpload.id, uploadedSelfieId: selfieUpload.id };
}

/** A fresh profile's secret key, and its individual (or company) BR subaccount with its tax id. */
export async function subaccountOwner(t: TestApp, accountType: "INDIVIDUAL" | "COMPANY" = "INDIVIDUAL") {
  const session = await t.signIn();
  const secret = { "x-api-key": (await t.createCredential(session.headers)).secretKey };
  const taxId = accountType === "COMPANY" ? randomCnpj() : randomCpf();
  const body = { accountType, name: accountType === "COMPANY" ? "Acme Ltda" : "Ana Souza", taxId };
  const { subAccountId } = await expect2xx(t.send, "POST", "/v1/brl/createSubaccount", secret, body);
  return { profileId: session.profileId, secret, taxId, subAccountId: subAccountId as string };
}

/**
 * Opens a KYB document of the company subaccount, as the acting headers, and uploads each of its sides (unless
 * `sent` is false). Its id.
 */
export async function uploadKybDocument(
  send: Send,
  headers: Record<string, string>,
  subAccountId: string,
  documentType: string,
  { isDoubleSided = false, sent = true } = {},
): Promise<string> {
  const path = `/v1/brl/kyb/documents?subAccountId=${subAccountId}`;
  const document = await expect2xx(send, "POST", path, headers, { documentType, isDoubleSided });
  for (const url of sent ? [document.uploadURLFront, document.uploadURLBack].filter(Boolean) : []) {
    const uploaded = await uploadFile(send, url);
    if (uploaded.status !== 204) throw new Error(`KYB upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  }
  return document.id;
}

/** A beneficial owner body (`POST /v1/brl/kyb/ubos`) but for the documents that identify the person. */
export const BENEFICIAL_OWNER = {
  fullName: "Bruno Lima",
  dateOfBirth: "1980-02-29",
  countryOfTaxId: "BR",
  taxIdNumber: "52998224725",
  percentageOfOwnership: "60",
  hasControl: "Managing Director",
  email: "bruno.lima@example.com",
  documentCountry: "BR",
  streetLine1: "Avenida Paulista 1000",
  city: "São Paulo",
  state: "SP",
  zipCode: "01310-100",
  country: "BR",
};
for (const personal of [
  BENEFICIAL_OWNER.fullName,
  BENEFICIAL_OWNER.taxIdNumber,
  BENEFICIAL_OWNER.email,
  BENEFICIAL_OWNER.streetLine1,
])
  rememberSecret(personal);

/**
 * Adds a beneficial owner to the company subaccount as the acting headers, identified by a double-sided ID and a
 * selfie uploaded as KYB documents. Its id.
 */
export async function addBeneficialOwner(
  send: Send,
  headers: Record<string, string>,
  subAccountId: string,
): Promise<string> {
  const uploadedIdentificationId = await uploadKybDocument(send, headers, subAccountId, "ID", { isDoubleSided: true });
  const uploadedSelfieId = await uploadKybDocument(send, headers, subAccountId, "SELFIE");
  const body = { ...BENEFICIAL_OWNER, uploadedIdentificationId, uploadedSelfieId };
  return (await expect2xx(send, "POST", `/v1/brl/kyb/ubos?subAccountId=${subAccountId}`, headers, body)).id;
}

/** A level 1 KYB body (`POST /v1/brl/kyb/new-level-1/api`) but for the CNPJ and the ids it names (prepareKybLevelOne). */
export const KYB_LEVEL_ONE_COMPANY = {
  companyLegalName: "Acme Comércio Ltda",
  companyRegistrationNumber: "35300012345",
  businessActivityDescription: "Wholesale of electronic components",
  reasonForAccountOpening: "receive_payments_for_goods_and_services",
  sourceOfFundsAndIncome: "sales_of_goods_and_services",
  numberOfEmployees: "11-50",
  estimatedAnnualRevenueUsd: "1m_to_10m",
  estimatedMonthlyVolumeUsd: "50000",
  countryTaxResidence: "BR",
  companyStreetLine1: "Rua Funchal 500",
  companyCity: "São Paulo",
  companyState: "SP",
  companyZipCode: "04551-060",
  companyCountry: "BR",
  website: "https://acme.example.com",
};

/**
 * A complete level 1 KYB body for the company subaccount with this CNPJ: a beneficial owner added and the
 * company's documents uploaded, as the acting headers.
 */
export async function prepareKybLevelOne(
  send: Send,
  headers: Record<string, string>,
  { subAccountId, taxId }: { subAccountId: string; taxId: string },
) {
  const document = (documentType: string) => uploadKybDocument(send, headers, subAccountId, documentType);
  return {
    ...KYB_LEVEL_ONE_COMPANY,
    uboIds: [await addBeneficialOwner(send, headers, subAccountId)],
    taxIdentificationNumberTin: taxId,
    certificateOfIncorporationDocumentId: await document("CERTIFICATE-OF-INCORPORATION"),
    taxIdentificationDocumentId: await document("COMPANY-TAX-IDENTIFICATION-DOCUMENT"),
  };
}

/**
 * Takes the subject the headers act as through KYC (KYB for a business) in each corridor, the way an
 * integrator does: BR through a subaccount, its uploads and level 1, the domestic corridors through an API
 * submission (individuals) or the hosted flow (businesses), then waits for the partner's approval of each (unless
 * told not to: the attempts are then left in review). Returns the BR tax id used, if any.
 */
export async function completeKyc(
  send: Send,
  headers: Record<string, string>,
  corridors: Corridor[],
  customerType: CustomerType = "individual",
  { awaitDecision = true } = {},
): Promise<{ brTaxId?: string }> {
  let brTaxId: string | undefined;
  for (const corridor of corridors) {
    if (corridor === "EU") continue;
    if (corridor === "BR") {
      brTaxId = customerType === "business" ? randomCnpj() : randomCpf();
      const { subAccountId } = await expect2xx(send, "POST", "/v1/brl/createSubaccount", headers, {
        accountType: customerType === "business" ? "COMPANY" : "INDIVIDUAL",
        name: "Ana Souza",
        taxId: brTaxId,
      });
      if (customerType === "business") {
        await expect2xx(send, "POST", `/v1/brl/kyb/new-level-1/web-sdk?subAccountId=${subAccountId}`, headers);
      } else
        await expect2xx(send, "POST", "/v1/brl/newKyc", headers, {
          ...LEVEL_ONE_KYC,
          ...(await uploadKycDocuments(send, headers, brTaxId)),
          subAccountId,
          taxIdNumber: brTaxId,
        });
      const taxId = brTaxId;
      if (awaitDecision)
        await waitFor(
          () => expect2xx(send, "GET", `/v1/brl/getKycStatus?taxId=${taxId}`, headers),
          (status) => status.status === "COMPLETED" || status.result !== undefined,
          "the partner's BR decision",
        ).then((status) => approved(corridor, status.result === "APPROVED", status));
      continue;
    }
    if (customerType === "business") {
      await expect2xx(send, "POST", "/v1/domestic/createBusinessCustomer", headers, { country: corridor });
      await expect2xx(send, "GET", `/v1/domestic/getKybRedirectLink?country=${corridor}`, headers);
      await expect2xx(send, "POST", "/v1/domestic/kycRedirectOpened", headers, { country: corridor, type: "BUSINESS" });
      await expect2xx(send, "POST", "/v1/domestic/kycRedirectFinished", headers, {
        country: corridor,
        type: "BUSINESS",
      });
    } else {
      await expect2xx(send, "POST", "/v1/domestic/createIndividualCustomer", headers, { country: corridor });
      const { submissionId } = await expect2xx(send, "POST", "/v1/domestic/submitKycInformation", headers, {
        country: corridor,
        firstName: "Ana",
        lastName: "Souza",
        dateOfBirth: "1990-04-12",
        documentType: "NATIONAL_ID",
        documentNumber: "12345678",
      });
      await expect2xx(send, "POST", "/v1/domestic/sendKycSubmission", headers, { country: corridor, submissionId });
    }
    if (!awaitDecision) continue;
    const type = customerType === "business" ? "BUSINESS" : "INDIVIDUAL";
    const status = await waitFor(
      () => expect2xx(send, "GET", `/v1/domestic/getKycStatus?country=${corridor}&type=${type}`, headers),
      (answer) => answer.status === "SUCCESS" || answer.status === "FAILED",
      `the partner's ${corridor} decision`,
    );
    approved(corridor, status.status === "SUCCESS", status);
  }
  return { brTaxId };
}

function approved(corridor: Corridor, isApproved: boolean, status: unknown): void {
  if (!isApproved) throw new Error(`KYC in ${corridor} was not approved: ${JSON.stringify(status)}`);
}
