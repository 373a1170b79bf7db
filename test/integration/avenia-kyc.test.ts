import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPartnerSimulator, type PartnerSimulator } from "../../packages/partner-simulator/src/index.js";
import { AveniaClient } from "../../src/providers/avenia/client.js";
import { AveniaKyc } from "../../src/providers/avenia/kyc.js";
import type {
  BeneficialOwnerForm,
  BrazilKybForm,
  BrazilKycForm,
  KycCustomer,
  KycDocument,
  KycObservation,
} from "../../src/providers/kyc-port.js";
import { waitFor } from "../support/kit.js";
import { capturedLogger, failure } from "../unit/providers/partner-server.js";

/*
 * The BR half of the KYC port (issue 41) against the partner simulator over HTTP: subaccounts, documents created at
 * Avenia with their bytes PUT to its upload URLs, level 1 by API, by share token and hosted, and the decision read
 * by observing the attempt.
 */

const AVENIA_API_KEY = "kyc-avenia-key";
const UPLOAD_ROUTE = "PUT /_uploads/avenia/{documentId}/{side}";
const DOCUMENT_ROUTE = "POST /v2/documents";
const LEVEL_1_ROUTE = "POST /v2/kyc/new-level-1/api";
const CPF = "52998224725";
const signingKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const log = capturedLogger();

let simulator: PartnerSimulator;
let client: AveniaClient;
let kyc: AveniaKyc;

beforeAll(async () => {
  simulator = await startPartnerSimulator({
    avenia: {
      apiKey: AVENIA_API_KEY,
      clientPublicKeyPem: signingKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    },
    alfredpay: { apiKey: "kyc-alfred-key", apiSecret: "kyc-alfred-secret" },
    timing: { stageDelayMs: 20, kycDecisionMs: 20, callbackRetryBaseMs: 20 },
  });
  client = new AveniaClient({
    baseUrl: simulator.url,
    apiKey: AVENIA_API_KEY,
    privateKeyPem: signingKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    logger: log.logger,
    timeoutMs: 1_000,
    retryBaseDelayMs: 5,
  });
  kyc = new AveniaKyc(client, { uploadTimeoutMs: 1_000 });
});
afterAll(async () => {
  await client?.close();
  await simulator?.stop();
});

function scan(fill: number, contentType = "image/jpeg") {
  return { contentType, bytes: Buffer.alloc(2048, fill) };
}

const TWO_SIDED_ID: KycDocument = { documentType: "ID", front: scan(1), back: scan(2) };
const SELFIE: KycDocument = { documentType: "SELFIE", front: scan(3) };

function kycForm(fullName: string): BrazilKycForm {
  return {
    fullName,
    dateOfBirth: "1990-01-31",
    taxIdNumber: CPF,
    countryOfTaxId: "BRA",
    email: "ana@example.com",
    streetAddress: "Rua Um, 1",
    city: "Sao Paulo",
    state: "SP",
    zipCode: "01000-000",
    country: "BRA",
  };
}

const OWNER: BeneficialOwnerForm = {
  fullName: "Bruno Owner",
  dateOfBirth: "1980-05-01",
  countryOfTaxId: "BRA",
  taxIdNumber: "11144477735",
  percentageOfOwnership: "60",
  hasControl: "CEO",
  documentCountry: "BRA",
  streetLine1: "Rua Dois, 2",
  city: "Sao Paulo",
  state: "SP",
  zipCode: "01000-000",
  country: "BRA",
};

function kybForm(sandboxReject?: boolean): BrazilKybForm {
  return {
    companyLegalName: "Souza Comercio Ltda",
    companyRegistrationNumber: "11222333000181",
    taxIdentificationNumberTin: "11222333000181",
    businessActivityDescription: "software",
    reasonForAccountOpening: "treasury_management",
    sourceOfFundsAndIncome: "sales_of_goods_and_services",
    numberOfEmployees: "1-10",
    estimatedAnnualRevenueUsd: "less_than_100k",
    estimatedMonthlyVolumeUsd: "10000",
    countryTaxResidence: "BRA",
    companyStreetLine1: "Rua Um, 1",
    companyCity: "Sao Paulo",
    companyState: "SP",
    companyZipCode: "01000-000",
    companyCountry: "BRA",
    ...(sandboxReject !== undefined && { sandboxReject }),
  };
}

async function newCustomer(customerType: KycCustomer["customerType"], name: string): Promise<KycCustomer> {
  const providerCustomerId = await kyc.createCustomer({ corridor: "BR", customerType, contactEmail: null, name });
  return { corridor: "BR", customerType, providerCustomerId, contactEmail: null };
}

/** Avenia's calls counted so far, by route. */
function calls(): Record<string, number> {
  return { ...simulator.stats().avenia.calls };
}

/** How many more calls each route got since `before`. */
function callsSince(before: Record<string, number>, routes: string[]): Record<string, number> {
  const now = calls();
  return Object.fromEntries(routes.map((route) => [route, (now[route] ?? 0) - (before[route] ?? 0)]));
}

function decision(customer: KycCustomer, attemptId: string): Promise<KycObservation> {
  return waitFor(
    () => kyc.observe(customer, attemptId),
    (observation) => observation.status === "approved" || observation.status === "rejected",
    "the attempt's decision",
  );
}

describe("AveniaKyc, an individual's level 1", () => {
  it("creates the documents, uploads a two-sided ID and a selfie, submits, and the attempt ends approved", async () => {
    const customer = await newCustomer("individual", "Ana Souza");
    const before = calls();
    const attemptId = await kyc.submitBrazilKyc(customer, kycForm("Ana Souza"), {
      identity: TWO_SIDED_ID,
      selfie: SELFIE,
    });
    // The simulator answers an upload 2xx only on a URL it handed out and a body that is not empty.
    expect(callsSince(before, [DOCUMENT_ROUTE, UPLOAD_ROUTE, LEVEL_1_ROUTE])).toEqual({
      [DOCUMENT_ROUTE]: 2,
      [UPLOAD_ROUTE]: 3,
      [LEVEL_1_ROUTE]: 1,
    });
    expect(await decision(customer, attemptId)).toEqual({ status: "approved", reason: null });
    const logged = log.lines.join("");
    for (const personal of ["Ana Souza", CPF, "ana@example.com", "Rua Um"]) expect(logged).not.toContain(personal);
  });

  it("opens a liveness check as a SELFIE-FROM-LIVENESS document, which a submission then names without sending it", async () => {
    const customer = await newCustomer("individual", "Ana Souza");
    const liveness = await kyc.startLiveness(customer);
    expect(liveness).toEqual({
      documentId: expect.any(String),
      url: `${simulator.url}/_hosted/avenia/liveness/${liveness.documentId}`,
      validationToken: expect.any(String),
    });
    const before = calls();
    const selfie = { ...SELFIE, documentType: "SELFIE-FROM-LIVENESS", partnerDocumentId: liveness.documentId };
    const attemptId = await kyc.submitBrazilKyc(customer, kycForm("Ana Souza"), { identity: TWO_SIDED_ID, selfie });
    // Only the identity document goes: created, and its two sides uploaded.
    expect(callsSince(before, [DOCUMENT_ROUTE, UPLOAD_ROUTE, LEVEL_1_ROUTE])).toEqual({
      [DOCUMENT_ROUTE]: 1,
      [UPLOAD_ROUTE]: 2,
      [LEVEL_1_ROUTE]: 1,
    });
    expect(await decision(customer, attemptId)).toEqual({ status: "approved", reason: null });
  });

  it("ends rejected, with Avenia's reason, when the name says so", async () => {
    const customer = await newCustomer("individual", "Ana Reject");
    const attemptId = await kyc.submitBrazilKyc(customer, kycForm("Ana Reject"), {
      identity: TWO_SIDED_ID,
      selfie: SELFIE,
    });
    expect(await decision(customer, attemptId)).toEqual({ status: "rejected", reason: "name does not match" });
  });

  it("ends decided from a share token, which never reaches a log", async () => {
    const customer = await newCustomer("individual", "Ana Token");
    const token = "sumsub-share-token-5f1c";
    expect(await decision(customer, await kyc.importKycToken(customer, token))).toEqual({
      status: "approved",
      reason: null,
    });
    expect(log.lines.join("")).not.toContain(token);
  });

  it("submits nothing when an upload is refused: the refusal is the partner's, with its status", async () => {
    const customer = await newCustomer("individual", "Ana Empty");
    const before = calls();
    const empty = { documentType: "ID", front: { contentType: "image/jpeg", bytes: Buffer.alloc(0) } };
    const refused = await failure(
      kyc.submitBrazilKyc(customer, kycForm("Ana Empty"), { identity: empty, selfie: SELFIE }),
    );
    expect([refused.kind, refused.partnerStatus, refused.partnerCode]).toEqual(["rejected", 400, "upload-refused"]);
    expect(callsSince(before, [LEVEL_1_ROUTE])).toEqual({ [LEVEL_1_ROUTE]: 0 });
  });

  it("gives up on an upload host that does not answer within the upload timeout, as an unknown outcome", async () => {
    const silent = createServer(() => {});
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/upload`;
    const impatient = new AveniaKyc(client, { uploadTimeoutMs: 200 });
    const createDocument = client.createDocument.bind(client);
    const spy = vi.spyOn(client, "createDocument").mockImplementation(async (...args) => ({
      ...(await createDocument(...args)),
      uploadURLFront: silentUrl,
    }));
    try {
      const customer = await newCustomer("individual", "Ana Silent");
      const started = Date.now();
      const refused = await failure(
        impatient.submitBrazilKyc(customer, kycForm("Ana Silent"), { identity: TWO_SIDED_ID, selfie: SELFIE }),
      );
      expect([refused.kind, refused.partnerCode]).toEqual(["unknown", "upload-timeout"]);
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      spy.mockRestore();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("refuses, before any call, a document of the wrong kind for its part, and a subaccount without a name", async () => {
    const customer = await newCustomer("individual", "Ana Wrong");
    const before = calls();
    await expect(
      kyc.submitBrazilKyc(customer, kycForm("Ana Wrong"), { identity: SELFIE, selfie: SELFIE }),
    ).rejects.toThrow("The identity part takes no SELFIE document");
    await expect(
      kyc.createCustomer({ corridor: "BR", customerType: "individual", contactEmail: null, name: null }),
    ).rejects.toThrow("with a name");
    expect(callsSince(before, [DOCUMENT_ROUTE, "POST /v2/account/sub-accounts"])).toEqual({
      [DOCUMENT_ROUTE]: 0,
      "POST /v2/account/sub-accounts": 0,
    });
  });
});

describe("AveniaKyc, a company's level 1", () => {
  async function apiKyb(sandboxReject?: boolean) {
    const customer = await newCustomer("business", "Souza Comercio Ltda");
    const before = calls();
    const ownerId = await kyc.registerBeneficialOwner(customer, OWNER, {
      identification: { documentType: "PASSPORT", front: scan(4, "application/pdf") },
      selfie: { documentType: "SELFIE-FROM-LIVENESS", front: scan(5) },
    });
    const attemptId = await kyc.submitBrazilKyb(
      customer,
      kybForm(sandboxReject),
      {
        certificateOfIncorporation: { documentType: "CERTIFICATE-OF-INCORPORATION", front: scan(6, "application/pdf") },
        taxIdentification: { documentType: "COMPANY-TAX-IDENTIFICATION-DOCUMENT", front: scan(7, "application/pdf") },
      },
      [ownerId],
    );
    const forwarded = callsSince(before, [DOCUMENT_ROUTE, UPLOAD_ROUTE, "POST /v2/account/ubos", LEVEL_1_ROUTE]);
    return { forwarded, observation: await decision(customer, attemptId) };
  }

  it("registers its owner with the owner's documents, forwards its own, and ends approved", async () => {
    expect(await apiKyb()).toEqual({
      forwarded: { [DOCUMENT_ROUTE]: 4, [UPLOAD_ROUTE]: 4, "POST /v2/account/ubos": 1, [LEVEL_1_ROUTE]: 1 },
      observation: { status: "approved", reason: null },
    });
  });

  it("ends rejected when the form asks the partner's sandbox to reject it", async () => {
    expect((await apiKyb(true)).observation).toEqual({ status: "rejected", reason: "name does not match" });
  });

  it("opens the hosted KYB with its two parts' pages, and the attempt ends decided", async () => {
    const customer = await newCustomer("business", "Souza Hosted Ltda");
    const hosted = await kyc.startHostedFlow(customer);
    expect(hosted).toEqual({
      attemptId: expect.any(String),
      url: hosted.representativeUrl,
      representativeUrl: `${simulator.url}/_hosted/avenia/kyb/${hosted.attemptId}/representative`,
      companyDataUrl: `${simulator.url}/_hosted/avenia/kyb/${hosted.attemptId}/company`,
    });
    expect(await decision(customer, hosted.attemptId)).toEqual({ status: "approved", reason: null });
  });

  it("hosts no individual's level 1", async () => {
    const customer = await newCustomer("individual", "Ana Hosted");
    await expect(kyc.startHostedFlow(customer)).rejects.toThrow("KYB only");
  });
});
