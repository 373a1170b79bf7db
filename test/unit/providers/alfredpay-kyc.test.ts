import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AlfredpayClient } from "../../../src/providers/alfredpay/client.js";
import { AlfredpayKyc, kycObservation } from "../../../src/providers/alfredpay/kyc.js";
import { PartnerError } from "../../../src/providers/http/partner-http.js";
import type { KycCustomer } from "../../../src/providers/kyc-port.js";
import { capturedLogger, json, startPartnerServer } from "./partner-server.js";

type PartnerServer = Awaited<ReturnType<typeof startPartnerServer>>;

const PREFIX = "/api/v1/third-party-service/penny";
let server: PartnerServer;
let client: AlfredpayClient;
let kyc: AlfredpayKyc;

beforeAll(async () => {
  server = await startPartnerServer();
  client = new AlfredpayClient({
    baseUrl: server.url,
    apiKey: "k",
    apiSecret: "s",
    logger: capturedLogger().logger,
    retryBaseDelayMs: 5,
  });
  kyc = new AlfredpayKyc(client);
});
afterEach(() => server.reset());
afterAll(async () => {
  await client.close();
  await server.close();
});

const customer = (corridor: KycCustomer["corridor"], customerType: KycCustomer["customerType"]): KycCustomer => ({
  corridor,
  customerType,
  providerCustomerId: "c-1",
  contactEmail: "ana@example.com",
});

describe("Alfredpay's verification statuses", () => {
  it.each([
    ["CREATED", "pending"],
    ["PENDING", "pending"],
    ["pending", "pending"],
    ["IN_REVIEW", "in_review"],
    ["COMPLETED", "approved"],
  ] as const)("read %s as %s", (status, ours) => {
    expect(kycObservation({ status })).toEqual({ status: ours, reason: null });
  });

  it("read FAILED as rejected, with the partner's reason when it gives one", () => {
    const failureReason = "Document expired";
    expect(kycObservation({ status: "FAILED", metadata: { failureReason } })).toEqual({
      status: "rejected",
      reason: failureReason,
    });
    expect(kycObservation({ status: "FAILED", metadata: null })).toEqual({ status: "rejected", reason: null });
  });

  it("read UPDATE_REQUIRED as pending, naming what the partner asks for", () => {
    expect(kycObservation({ status: "UPDATE_REQUIRED", metadata: { requiredFields: ["address", "zipCode"] } })).toEqual(
      { status: "pending", reason: "Alfredpay asks for an update: address, zipCode" },
    );
    expect(kycObservation({ status: "UPDATE_REQUIRED" })).toEqual({
      status: "pending",
      reason: "Alfredpay asks for an update",
    });
  });

  it("refuse to guess at a status they do not know", () => {
    const read = () => kycObservation({ status: "EXPIRED" });
    expect(read).toThrow(PartnerError);
    expect(read).toThrow(/status we do not know \("EXPIRED"\)/);
  });
});

describe("Alfredpay KYC on the wire", () => {
  it("sends an individual's form under Alfredpay's names, leaving out what the form lacks", async () => {
    server.handle((_, response) => json(response, 200, { submissionId: "s-1" }));

    const opened = await kyc.openSubmission(customer("CO", "individual"), {
      country: "CO",
      firstName: "Ana",
      lastName: "Lopez",
      dateOfBirth: "1990-01-31",
      documentType: "INE",
      documentNumber: "1020304050",
      colombianDocumentType: "CC",
      phone: "+573001112233",
      politicallyExposed: false,
      nationalities: ["CO"],
      city: "Bogota",
    });

    expect(opened).toEqual({ attemptId: "s-1", relatedPersonIds: [] });
    const [sent] = server.requests;
    expect(sent.url).toBe(`${PREFIX}/customers/c-1/kyc`);
    expect(JSON.parse(sent.body)).toEqual({
      kycSubmission: {
        firstName: "Ana",
        lastName: "Lopez",
        dateOfBirth: "1990-01-31",
        country: "CO",
        city: "Bogota",
        dni: "1020304050",
        typeDocumentCol: "CC",
        phoneNumber: "+573001112233",
        nationalities: ["CO"],
        pep: false,
      },
    });
  });

  it("spells a Mexican document type as Alfredpay does, and sends no Argentine one", async () => {
    server.handle((_, response) => json(response, 200, { submissionId: "s-1" }));
    const form = { firstName: "Ana", lastName: "Lopez", dateOfBirth: "1990-01-31", documentNumber: "X1" } as const;

    await kyc.openSubmission(customer("MX", "individual"), { ...form, country: "MX", documentType: "PASSPORT" });
    await kyc.openSubmission(customer("AR", "individual"), { ...form, country: "AR", argentineDocumentType: "DNI" });

    const [mexican, argentine] = server.requests.map((request) => JSON.parse(request.body).kycSubmission);
    expect(mexican.typeDocument).toBe("passport");
    expect(Object.keys(argentine)).not.toContain("typeDocumentAr");
    expect(Object.keys(argentine)).not.toContain("typeDocument");
  });

  it("names an uploaded file in ASCII after its type and media type", async () => {
    server.handle((_, response) => response.end());

    await kyc.sendFile(customer("MX", "individual"), "s-1", {
      fileType: "National ID Front",
      contentType: "image/jpeg",
      bytes: Buffer.from([0xff, 0xd8]),
    });

    expect(server.requests[0].url).toBe(`${PREFIX}/customers/c-1/kyc/s-1/files`);
    expect(server.requests[0].body).toContain('name="fileBody"; filename="National-ID-Front.jpeg"');
  });

  it("refuses a file type the upload does not take, without a call", async () => {
    const sent = kyc.sendFile(customer("MX", "individual"), "s-1", {
      fileType: "taxIdDocument",
      contentType: "application/pdf",
      bytes: Buffer.from("%PDF"),
    });

    await expect(sent).rejects.toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "fileType" }] });
    expect(server.requests).toHaveLength(0);
  });

  it("opens the hosted KYC of a US customer under USA", async () => {
    server.handle((_, response) =>
      json(response, 200, { verification_url: "https://kyc.example/x", submissionId: "s-9" }),
    );

    expect(await kyc.startHostedFlow(customer("US", "individual"))).toEqual({
      attemptId: "s-9",
      url: "https://kyc.example/x",
    });
    expect(server.requests[0].url).toBe(`${PREFIX}/customers/c-1/kyc/USA/url`);
  });

  it("gives no related person ids when the partner's details do not list the form's persons", async () => {
    server.handle((request, response) =>
      request.method === "POST"
        ? json(response, 200, { submissionId: "s-1" })
        : json(response, 200, [
            {
              customerId: "c-1",
              submissionId: "s-1",
              businessName: "Cafe",
              relatedPersons: [{ idRelatedPerson: "p-1", firstName: "Marta", lastName: "Ruiz" }],
            },
          ]),
    );
    const person = { email: "p@example.com", dateOfBirth: "1980-05-05", nationalities: ["CO"] };

    const opened = kyc.openSubmission(customer("CO", "business"), {
      country: "CO",
      businessName: "Cafe",
      taxId: "900123456",
      relatedPersons: [
        { ...person, firstName: "Luis", lastName: "Gomez" },
        { ...person, firstName: "Marta", lastName: "Ruiz" },
      ],
    });

    await expect(opened).rejects.toMatchObject({ kind: "unknown", partnerCode: "related-persons-unmatched" });
  });
});
