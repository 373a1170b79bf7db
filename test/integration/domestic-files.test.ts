import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../src/uploads/service.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { expectError, ok } from "../support/kit.js";
import { JPEG_FILE } from "../support/kyc.js";
import { multipartForm, type FormFields } from "../support/multipart.js";
import { rememberSecret } from "../support/secrets.js";

/**
 * The reference's multipart file uploads of API KYC/KYB submissions in AR, CO and MX (issue 14):
 * POST /v1/domestic/submitKycFile, submitKybFile and submitKybRelatedPersonFile (and their country aliases).
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

const PNG_FILE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
const PDF_FILE = Buffer.from("%PDF-1.7\n%%EOF\n");
const jpeg = (bytes = JPEG_FILE) => ({ bytes, contentType: "image/jpeg" });

const post = (headers: Headers, path: string, body: unknown) => t.request("POST", path, { headers, body });
const sendForm = (headers: Headers, path: string, fields: FormFields) => {
  const form = multipartForm(fields);
  return t.request("POST", path, { headers: { ...headers, "content-type": form.contentType }, rawBody: form.body });
};

/** A profile with an individual customer in the country and an API KYC submission, not sent yet. */
async function kycSubmission(country = "CO") {
  const profile = await t.newProfile();
  ok(await post(profile.secret, "/v1/domestic/createIndividualCustomer", { country }));
  const information = { country, firstName: "Ana", lastName: "Gómez", dateOfBirth: "1990-04-12", dni: "12345678" };
  const { submissionId } = ok(await post(profile.secret, "/v1/domestic/submitKycInformation", information));
  return { ...profile, submissionId: submissionId as string };
}

/** A profile with a business customer in the country and an API KYB submission declaring two related persons. */
async function kybSubmission(country = "MX") {
  const profile = await t.newProfile();
  ok(await post(profile.secret, "/v1/domestic/createBusinessCustomer", { country }));
  const person = (firstName: string) => ({
    firstName,
    lastName: "Pérez",
    email: `${firstName.toLowerCase()}@example.com`,
    dateOfBirth: "1985-02-03",
    nationalities: [country],
  });
  const information = {
    country,
    businessName: "Acme SA",
    taxId: "ACM010101ABC",
    relatedPersons: [person("Juana"), person("Carlos")],
  };
  const { submissionId } = ok(await post(profile.secret, "/v1/domestic/submitKybInformation", information));
  const [found] = ok(
    await t.request("GET", `/v1/domestic/findKybCustomerAndBusiness?country=${country}`, { headers: profile.secret }),
  );
  const relatedPersonIds = (found.relatedPersons as { idRelatedPerson: string }[]).map((p) => p.idRelatedPerson);
  return { ...profile, submissionId: submissionId as string, relatedPersonIds };
}

/** The files recorded for a profile, and the files its storage directory holds. */
async function filesOf(profileId: string) {
  const rows = await t.app.db.domesticKycFile.findMany({ where: { profileId }, orderBy: { uploadedAt: "asc" } });
  const directory = join(t.database.dataDir, "uploads", profileId);
  const stored = existsSync(directory) ? readdirSync(directory) : [];
  return { rows, stored };
}

const SUBMISSIONS =
  "query ($country: DomesticKybCountry!) { domesticKybSubmissions(country: $country) { submissionId files { fileType relatedPersonId uploadedAt } } }";

describe("submitKycFile", () => {
  it("takes each file of an open KYC submission, stores it whole and records it; the alias path names the country", async () => {
    const owner = await kycSubmission("CO");
    const front = { country: "CO", submissionId: owner.submissionId, fileType: "National ID Front", file: jpeg() };
    expect(ok(await sendForm(owner.secret, "/v1/domestic/submitKycFile", front))).toEqual({ success: true });
    const back = {
      submissionId: owner.submissionId,
      fileType: "National ID Back",
      file: { ...jpeg(PDF_FILE), contentType: "application/pdf" },
    };
    expect(ok(await sendForm(owner.session, "/v1/co/submitKycFile", back))).toEqual({ success: true });
    const selfie = {
      submissionId: owner.submissionId,
      fileType: "Selfie",
      file: { bytes: PNG_FILE, contentType: "image/png" },
    };
    ok(await sendForm(owner.secret, "/v1/co/submitKycFile", selfie));

    const { rows, stored } = await filesOf(owner.profileId);
    expect(
      rows.map(({ fileType, contentType, sizeBytes, submissionId, relatedPersonId }) => ({
        fileType,
        contentType,
        sizeBytes,
        submissionId,
        relatedPersonId,
      })),
    ).toEqual([
      {
        fileType: "National ID Front",
        contentType: "image/jpeg",
        sizeBytes: JPEG_FILE.length,
        submissionId: owner.submissionId,
        relatedPersonId: null,
      },
      {
        fileType: "National ID Back",
        contentType: "application/pdf",
        sizeBytes: PDF_FILE.length,
        submissionId: owner.submissionId,
        relatedPersonId: null,
      },
      {
        fileType: "Selfie",
        contentType: "image/png",
        sizeBytes: PNG_FILE.length,
        submissionId: owner.submissionId,
        relatedPersonId: null,
      },
    ]);
    expect(stored).toHaveLength(3);
    const bytes = readFileSync(join(t.database.dataDir, "uploads", rows[0]!.storageKey));
    expect(bytes.equals(JPEG_FILE)).toBe(true);

    // Once sent for review the submission takes no more files.
    ok(await post(owner.secret, "/v1/domestic/sendKycSubmission", { country: "CO", submissionId: owner.submissionId }));
    expectError(
      await sendForm(owner.secret, "/v1/domestic/submitKycFile", front),
      400,
      "VALIDATION_FAILED",
      "submissionId",
    );
    expect((await filesOf(owner.profileId)).rows).toHaveLength(3);
  });

  it("another owner's submission, an unknown one, or no customer -> 404 NOT_FOUND, and nothing is stored", async () => {
    const owner = await kycSubmission("MX");
    const stranger = await kycSubmission("MX");
    const form = (submissionId: string) => ({ country: "MX", submissionId, fileType: "Selfie", file: jpeg() });
    expectError(
      await sendForm(stranger.secret, "/v1/domestic/submitKycFile", form(owner.submissionId)),
      404,
      "NOT_FOUND",
    );
    expectError(await sendForm(owner.secret, "/v1/domestic/submitKycFile", form(randomUUID())), 404, "NOT_FOUND");
    const newcomer = await t.newProfile();
    expectError(await sendForm(newcomer.secret, "/v1/mx/submitKycFile", form(owner.submissionId)), 404, "NOT_FOUND");
    // The business customer's submission is no KYC submission.
    const business = await kybSubmission("MX");
    expectError(await sendForm(business.secret, "/v1/mx/submitKycFile", form(business.submissionId)), 404, "NOT_FOUND");
    for (const profile of [owner, stranger, newcomer, business]) {
      expect(await filesOf(profile.profileId)).toEqual({ rows: [], stored: [] });
    }
  });

  it("bad input -> 400 VALIDATION_FAILED naming the field (413 for a file too large), and changes nothing", async () => {
    const owner = await kycSubmission("AR");
    const valid = { country: "AR", submissionId: owner.submissionId, fileType: "National ID Front", file: jpeg() };
    const refused: [string, FormFields, string, number?][] = [
      ["no file", { ...valid, file: undefined }, "file"],
      ["no file type", { ...valid, fileType: undefined }, "fileType"],
      ["an unknown file type", { ...valid, fileType: "Passport" }, "fileType"],
      ["a KYB file type", { ...valid, fileType: "taxIdDocument" }, "fileType"],
      ["no submission", { ...valid, submissionId: undefined }, "submissionId"],
      ["a submission id that is no id", { ...valid, submissionId: "submission-1" }, "submissionId"],
      ["a country without API files", { ...valid, country: "US" }, "country"],
      ["a country the path contradicts", { ...valid, country: "CO" }, "country"],
      ["an empty file", { ...valid, file: jpeg(Buffer.alloc(0)) }, "file"],
      ["a file that is not what its type says", { ...valid, file: jpeg(PNG_FILE) }, "file"],
      ["a media type not taken", { ...valid, file: { bytes: Buffer.from("text"), contentType: "text/plain" } }, "file"],
      [
        "a selfie as a PDF",
        { ...valid, fileType: "Selfie", file: { bytes: PDF_FILE, contentType: "application/pdf" } },
        "file",
      ],
      ["a field the form does not take", { ...valid, firstName: "Ana" }, "(body)"],
      ["two files", { ...valid, file2: jpeg() }, "file"],
      [
        "a file too large",
        { ...valid, file: jpeg(Buffer.concat([JPEG_FILE, Buffer.alloc(MAX_UPLOAD_BYTES)])) },
        "file",
        413,
      ],
    ];
    for (const [name, fields, field, status = 400] of refused) {
      const path = name === "a country the path contradicts" ? "/v1/ar/submitKycFile" : "/v1/domestic/submitKycFile";
      const response = await sendForm(owner.secret, path, fields);
      expectError(response, status, status === 413 ? "PAYLOAD_TOO_LARGE" : "VALIDATION_FAILED", field);
    }
    // A JSON body is no form.
    expectError(
      await post(owner.secret, "/v1/domestic/submitKycFile", { ...valid, file: "AAAA" }),
      400,
      "VALIDATION_FAILED",
      "Content-Type",
    );
    // A body that is not well-formed multipart.
    const broken = await t.request("POST", "/v1/domestic/submitKycFile", {
      headers: { ...owner.secret, "content-type": "multipart/form-data; boundary=xyz" },
      rawBody: '--xyz\r\nContent-Disposition: form-data; name="country"\r\n\r\nAR',
    });
    expectError(broken, 400, "VALIDATION_FAILED", "(body)");
    expect(await filesOf(owner.profileId)).toEqual({ rows: [], stored: [] });
    // The submission is still open: the valid form is taken.
    ok(await sendForm(owner.secret, "/v1/domestic/submitKycFile", valid));
  });

  it("no log line shows the file's contents or the form's fields", async () => {
    const owner = await kycSubmission("CO");
    const marker = rememberSecret(`file-contents-${randomUUID()}`);
    const file = jpeg(Buffer.concat([JPEG_FILE, Buffer.from(marker)]));
    ok(
      await sendForm(owner.secret, "/v1/co/submitKycFile", {
        submissionId: owner.submissionId,
        fileType: "Selfie",
        file,
      }),
    );
    const refused = await sendForm(owner.secret, "/v1/co/submitKycFile", {
      submissionId: owner.submissionId,
      fileType: marker,
      file,
    });
    expectError(refused, 400, "VALIDATION_FAILED", "fileType");
    expect(JSON.stringify(refused.body)).not.toContain(marker);
  });
});

describe("submitKybFile and submitKybRelatedPersonFile", () => {
  it("take a company's documents and its related persons' identity documents; the submission shows which arrived", async () => {
    const owner = await kybSubmission("MX");
    const [juana, carlos] = owner.relatedPersonIds;
    const document = (fileType: string) => ({
      country: "MX",
      submissionId: owner.submissionId,
      fileType,
      file: { bytes: PDF_FILE, contentType: "application/pdf" },
    });
    ok(await sendForm(owner.secret, "/v1/domestic/submitKybFile", document("taxIdDocument")));
    ok(await sendForm(owner.session, "/v1/mx/submitKybFile", { ...document("proofAddress"), country: undefined }));
    // Sent again: the latest of the type counts.
    ok(await sendForm(owner.secret, "/v1/domestic/submitKybFile", document("taxIdDocument")));
    const personFile = (relatedPersonId: string, fileType: string) => ({
      country: "MX",
      relatedPersonId,
      fileType,
      file: jpeg(),
    });
    expect(
      ok(await sendForm(owner.secret, "/v1/domestic/submitKybRelatedPersonFile", personFile(juana!, "docFront"))),
    ).toEqual({ success: true });
    ok(await sendForm(owner.secret, "/v1/domestic/submitKybRelatedPersonFile", personFile(juana!, "docBack")));
    ok(
      await sendForm(owner.secret, "/v1/mx/submitKybRelatedPersonFile", {
        ...personFile(carlos!, "docFront"),
        country: undefined,
      }),
    );

    const [submission] = ok(await t.graphql(SUBMISSIONS, { country: "MX" }, owner.session)).data.domesticKybSubmissions;
    expect(submission.submissionId).toBe(owner.submissionId);
    expect(
      submission.files.map(({ fileType, relatedPersonId }: { fileType: string; relatedPersonId: string | null }) => ({
        fileType,
        relatedPersonId,
      })),
    ).toEqual([
      { fileType: "TAX_ID_DOCUMENT", relatedPersonId: null },
      { fileType: "PROOF_ADDRESS", relatedPersonId: null },
      { fileType: "DOC_FRONT", relatedPersonId: juana },
      { fileType: "DOC_BACK", relatedPersonId: juana },
      { fileType: "DOC_FRONT", relatedPersonId: carlos },
    ]);
    expect((await filesOf(owner.profileId)).stored).toHaveLength(6);
    // The REST listing keeps the reference's shape.
    const [listed] = ok(
      await t.request("GET", "/v1/domestic/findKybCustomerAndBusiness?country=MX", { headers: owner.secret }),
    );
    expect(Object.keys(listed).sort()).toEqual(["relatedPersons", "submissionId"]);
  });

  it("another owner's submission or related person, or an unknown one -> 404 NOT_FOUND; KYB countries only", async () => {
    const owner = await kybSubmission("CO");
    const stranger = await kybSubmission("CO");
    const document = (submissionId: string) => ({
      country: "CO",
      submissionId,
      fileType: "businessLicense",
      file: jpeg(),
    });
    const personFile = (relatedPersonId: string) => ({
      country: "CO",
      relatedPersonId,
      fileType: "docFront",
      file: jpeg(),
    });
    expectError(
      await sendForm(stranger.secret, "/v1/domestic/submitKybFile", document(owner.submissionId)),
      404,
      "NOT_FOUND",
    );
    expectError(await sendForm(owner.secret, "/v1/domestic/submitKybFile", document(randomUUID())), 404, "NOT_FOUND");
    expectError(
      await sendForm(
        stranger.secret,
        "/v1/domestic/submitKybRelatedPersonFile",
        personFile(owner.relatedPersonIds[0]!),
      ),
      404,
      "NOT_FOUND",
    );
    expectError(
      await sendForm(owner.secret, "/v1/domestic/submitKybRelatedPersonFile", personFile(randomUUID())),
      404,
      "NOT_FOUND",
    );
    // The individual customer's submission is no KYB submission.
    const individual = await kycSubmission("CO");
    expectError(
      await sendForm(individual.secret, "/v1/domestic/submitKybFile", document(individual.submissionId)),
      404,
      "NOT_FOUND",
    );

    expectError(
      await sendForm(owner.secret, "/v1/ar/submitKybFile", { ...document(owner.submissionId), country: undefined }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await sendForm(owner.secret, "/v1/domestic/submitKybFile", { ...document(owner.submissionId), country: "AR" }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await sendForm(owner.secret, "/v1/domestic/submitKybFile", {
        ...document(owner.submissionId),
        fileType: "Selfie",
      }),
      400,
      "VALIDATION_FAILED",
      "fileType",
    );
    expectError(
      await sendForm(owner.secret, "/v1/domestic/submitKybRelatedPersonFile", {
        ...personFile(owner.relatedPersonIds[0]!),
        fileType: "docSide",
      }),
      400,
      "VALIDATION_FAILED",
      "fileType",
    );
    expectError(
      await sendForm(owner.secret, "/v1/domestic/submitKybRelatedPersonFile", {
        ...personFile(owner.relatedPersonIds[0]!),
        file: undefined,
      }),
      400,
      "VALIDATION_FAILED",
      "file",
    );
    for (const profile of [owner, stranger, individual]) {
      expect(await filesOf(profile.profileId)).toEqual({ rows: [], stored: [] });
    }
  });
});
