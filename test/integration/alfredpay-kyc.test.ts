import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPartnerSimulator, type PartnerSimulator } from "../../packages/partner-simulator/src/index.js";
import { AlfredpayClient } from "../../src/providers/alfredpay/client.js";
import { AlfredpayKyc } from "../../src/providers/alfredpay/kyc.js";
import type { DomesticKybForm, DomesticKycForm, KycCustomer, KycObservation } from "../../src/providers/kyc-port.js";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { waitFor } from "../support/kit.js";
import { capturedLogger, failure } from "../unit/providers/partner-server.js";

/*
 * Alfredpay's half of the KYC port against the partner simulator over HTTP: API KYC and KYB with their files, the
 * hosted flows, and the decisions observed. Nothing here touches the database.
 */

const PENNY = "/api/v1/third-party-service/penny";
const CREDENTIALS = { apiKey: "kyc-alfred-key", apiSecret: "kyc-alfred-secret" };
const JPEG = { contentType: "image/jpeg", bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) };
const PEM = { type: "spki", format: "pem" } as const;
const PDF = { contentType: "application/pdf", bytes: Buffer.from("%PDF-1.4 company document") };

let simulator: PartnerSimulator;
let client: AlfredpayClient;
let kyc: AlfredpayKyc;

beforeAll(async () => {
  simulator = await startPartnerSimulator({
    // These tests never call Avenia; the simulator wants a client key for it all the same.
    avenia: { apiKey: "unused", clientPublicKeyPem: generateKeyPairSync("ed25519").publicKey.export(PEM).toString() },
    alfredpay: CREDENTIALS,
    timing: { kycDecisionMs: 20 },
  });
  client = new AlfredpayClient({
    baseUrl: simulator.url,
    ...CREDENTIALS,
    logger: capturedLogger().logger,
    timeoutMs: 1_000,
    retryBaseDelayMs: 5,
  });
  kyc = new AlfredpayKyc(client);
});
afterAll(async () => {
  await client?.close();
  await simulator?.stop();
});

async function newCustomer(
  corridor: Corridor,
  customerType: CustomerType,
  contactEmail: string | null = `ana+${randomUUID()}@example.com`,
): Promise<KycCustomer> {
  const providerCustomerId = await kyc.createCustomer({ corridor, customerType, contactEmail });
  return { corridor, customerType, providerCustomerId, contactEmail };
}

function mexicanForm(lastName: string): DomesticKycForm {
  return {
    country: "MX",
    firstName: "Ana",
    lastName,
    dateOfBirth: "1990-01-31",
    documentType: "INE",
    documentNumber: "GODE561231HDFRRN09",
    address: "Calle Uno 1",
    city: "CDMX",
    state: "CDMX",
    zipCode: "01000",
  };
}

function businessForm(country: Corridor, personNames: [string, string][]): DomesticKybForm {
  return {
    country,
    businessName: "Cafe Andino SAS",
    taxId: "900123456",
    address: "Calle 10 # 5-51",
    city: "Bogota",
    state: "Cundinamarca",
    zipCode: "110311",
    website: "https://cafe.example.com",
    businessActivities: "Coffee export",
    accountPurpose: "Supplier payments",
    sourceOfFunds: "Sales",
    relatedPersons: personNames.map(([firstName, lastName]) => ({
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}@example.com`,
      dateOfBirth: "1980-05-05",
      nationalities: [country],
    })),
  };
}

const decided = (customer: KycCustomer, attemptId: string) =>
  waitFor(
    () => kyc.observe(customer, attemptId),
    (observation: KycObservation) => observation.status === "approved" || observation.status === "rejected",
    "the partner's decision",
  );

const calls = (route: string) => simulator.stats().alfredpay.calls[route] ?? 0;

describe("Alfredpay API KYC", () => {
  it("takes an MX individual's form and three files, then sends it for review, which approves it", async () => {
    const customer = await newCustomer("MX", "individual");
    const { attemptId, relatedPersonIds } = await kyc.openSubmission(customer, mexicanForm("Garcia"));
    expect(relatedPersonIds).toEqual([]);
    const filesRoute = `POST ${PENNY}/customers/{customerId}/kyc/{submissionId}/files`;
    const filesBefore = calls(filesRoute);
    for (const fileType of ["National ID Front", "National ID Back", "Selfie"])
      await kyc.sendFile(customer, attemptId, { fileType, ...JPEG });
    expect(calls(filesRoute) - filesBefore).toBe(3);
    // Given, not yet sent: Alfredpay's CREATED.
    expect(await kyc.observe(customer, attemptId)).toEqual({ status: "pending", reason: null });

    await kyc.sendSubmission(customer, attemptId);

    expect(await decided(customer, attemptId)).toEqual({ status: "approved", reason: null });
  });

  it("ends rejected, with the partner's reason, when a name carries the simulator's marker", async () => {
    const customer = await newCustomer("MX", "individual");
    const { attemptId } = await kyc.openSubmission(customer, mexicanForm("Rejected"));
    await kyc.sendSubmission(customer, attemptId);

    expect(await decided(customer, attemptId)).toEqual({
      status: "rejected",
      reason: "Identity could not be verified",
    });
  });

  it("refuses a file after the submission was sent (422), and says so", async () => {
    const customer = await newCustomer("MX", "individual");
    const { attemptId } = await kyc.openSubmission(customer, mexicanForm("Late"));
    await kyc.sendSubmission(customer, attemptId);

    const refused = await failure(kyc.sendFile(customer, attemptId, { fileType: "Selfie", ...JPEG }));

    expect([refused.partnerStatus, refused.code]).toEqual([422, "PROVIDER_REJECTED"]);
  });
});

describe("Alfredpay API KYB", () => {
  it("gives a business's two related persons their ids in the form's order, takes their files, and approves", async () => {
    const customer = await newCustomer("CO", "business");
    const form = businessForm("CO", [
      ["Luis", "Gomez"],
      ["Marta", "Ruiz"],
    ]);

    const { attemptId, relatedPersonIds } = await kyc.openSubmission(customer, form);

    expect(relatedPersonIds).toHaveLength(2);
    const [details] = await client.kybDetails(customer.providerCustomerId);
    expect(details.submissionId).toBe(attemptId);
    expect(details.relatedPersons.map((person) => [person.idRelatedPerson, person.lastName])).toEqual([
      [relatedPersonIds[0], "Gomez"],
      [relatedPersonIds[1], "Ruiz"],
    ]);
    const personRoute = `POST ${PENNY}/customers/{customerId}/kyb/{idRelatedPerson}/files/relate-person`;
    const companyRoute = `POST ${PENNY}/customers/{customerId}/kyb/{submissionId}/files`;
    const [personFilesBefore, companyFilesBefore] = [calls(personRoute), calls(companyRoute)];
    await kyc.sendFile(customer, attemptId, { fileType: "taxIdDocument", ...PDF });
    await kyc.sendFile(customer, attemptId, { fileType: "articlesIncorporation", ...PDF });
    for (const relatedPersonId of relatedPersonIds)
      for (const fileType of ["docFront", "docBack"])
        await kyc.sendFile(customer, attemptId, { fileType, relatedPersonId, ...JPEG });
    expect([calls(companyRoute) - companyFilesBefore, calls(personRoute) - personFilesBefore]).toEqual([2, 4]);
    const submitRoute = `PUT ${PENNY}/customers/{customerId}/kyb/{submissionId}/submit`;
    const submitsBefore = calls(submitRoute);

    await kyc.sendSubmission(customer, attemptId);

    expect(calls(submitRoute) - submitsBefore).toBe(1);
    expect(await decided(customer, attemptId)).toEqual({ status: "approved", reason: null });
    const late = await failure(
      kyc.sendFile(customer, attemptId, { fileType: "docFront", relatedPersonId: relatedPersonIds[0], ...JPEG }),
    );
    expect(late.partnerStatus).toBe(422);
  });

  it("ends rejected when a related person's name carries the marker", async () => {
    const customer = await newCustomer("MX", "business");
    const { attemptId } = await kyc.openSubmission(customer, businessForm("MX", [["Rejecta", "Lopez"]]));
    await kyc.sendSubmission(customer, attemptId);

    expect((await decided(customer, attemptId)).status).toBe("rejected");
  });
});

describe("Alfredpay hosted flows", () => {
  it.each([
    ["US", "individual", "kyc"],
    ["US", "business", "kyb"],
    ["MX", "individual", "kyc"],
  ] as const)("open for a %s %s customer and end approved", async (corridor, customerType, kind) => {
    const customer = await newCustomer(corridor, customerType);

    const hosted = await kyc.startHostedFlow(customer);

    expect(hosted.url).toBe(`${simulator.url}/_hosted/alfredpay/${kind}/${hosted.attemptId}`);
    expect(await decided(customer, hosted.attemptId)).toEqual({ status: "approved", reason: null });
  });
});

describe("Alfredpay customers", () => {
  it("finds the customer a repeated creation meets, and refuses one of the other type under the same email", async () => {
    const email = `ana+${randomUUID()}@example.com`;
    const individual = await newCustomer("MX", "individual", email);

    expect((await newCustomer("MX", "individual", email)).providerCustomerId).toBe(individual.providerCustomerId);
    const refused = await failure(newCustomer("MX", "business", email));
    expect([refused.kind, refused.partnerCode]).toEqual(["rejected", "customer-type-taken"]);
  });

  it("never makes two subjects without an email one partner customer", async () => {
    const first = await newCustomer("CO", "individual", null);
    const second = await newCustomer("CO", "individual", null);

    expect(first.providerCustomerId).not.toBe(second.providerCustomerId);
  });
});
