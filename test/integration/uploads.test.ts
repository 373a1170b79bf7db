import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_URL_LIFETIME_MS } from "../../src/uploads/service.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { expectError, expectGraphQLError, ok, waitFor } from "../support/kit.js";
import {
  JPEG_FILE,
  LEVEL_ONE_KYC,
  randomCpf,
  subaccountOwner as createSubaccountOwner,
  uploadFile,
  uploadKycDocuments,
  type Send,
} from "../support/kyc.js";

/**
 * Document uploads for BR KYC/KYB (issue 14): the operations that open them (getUploadUrls,
 * getSelfieLivenessUrl, kyb/documents and their GraphQL fields), the URLs that take the files without a
 * credential (`PUT /v1/uploads/{id}?token=`), and newKyc, which accepts only documents whose files arrived.
 * The clock runs `clockOffsetMs` ahead when a test moves it, to let URLs expire.
 */

let t: TestApp;
let clockOffsetMs = 0;
beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { seams: { clock: () => new Date(Date.now() + clockOffsetMs) } },
  );
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
// `t` is made in beforeAll.
const send: Send = (...call) => t.send(...call);
const post = (headers: Headers, path: string, body: unknown = {}) => t.request("POST", path, { headers, body });
const get = (headers: Headers, path: string) => t.request("GET", path, { headers });

const PNG_FILE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
const PDF_FILE = Buffer.from("%PDF-1.7\n%%EOF\n");

const subaccountOwner = (accountType?: "INDIVIDUAL" | "COMPANY") => createSubaccountOwner(t, accountType);

/** The stored row of an upload URL's side. */
const sideOf = (url: string) =>
  t.app.db.documentUpload.findUniqueOrThrow({ where: { id: new URL(url).pathname.split("/").pop()! } });

/** An identity document's and a selfie's upload targets for the subaccount, files not sent. */
async function openKycUploads(owner: { secret: Headers; taxId: string }, isDoubleSided = false) {
  const body = { taxId: owner.taxId, documentType: "ID", isDoubleSided };
  return ok(await post(owner.secret, "/v1/brl/getUploadUrls", body));
}

describe("level 1 KYC uploads", () => {
  it("getUploadUrls -> PUT each file -> newKyc accepts the documents, and the files are stored whole", async () => {
    const owner = await subaccountOwner();
    const body = { taxId: owner.taxId, documentType: "DRIVERS-LICENSE", isDoubleSided: true };
    const urls = ok(await post(owner.secret, "/v1/brl/getUploadUrls", body));
    expect(urls).toEqual({
      idUpload: { id: expect.any(String), uploadURLFront: expect.any(String), uploadURLBack: expect.any(String) },
      selfieUpload: {
        id: expect.any(String),
        uploadURLFront: expect.any(String),
        livenessUrl: expect.any(String),
        validateLivenessToken: expect.any(String),
      },
    });
    // The URLs point at this service, as configured, and say nothing of the caller's credential.
    const base = new URL(t.app.config.publicBaseUrl).origin;
    for (const url of [urls.idUpload.uploadURLFront, urls.idUpload.uploadURLBack, urls.selfieUpload.uploadURLFront]) {
      expect(new URL(url).origin).toBe(base);
      expect(new URL(url).pathname).toMatch(/^\/v1\/uploads\/[0-9a-f-]{36}$/);
      expect(url).not.toContain(owner.secret["x-api-key"]);
    }
    const kyc = {
      ...LEVEL_ONE_KYC,
      subAccountId: owner.subAccountId,
      taxIdNumber: owner.taxId,
      uploadedDocumentId: urls.idUpload.id,
      uploadedSelfieId: urls.selfieUpload.id,
    };

    // Nothing arrived yet: both fields are refused at once.
    const early = await post(owner.secret, "/v1/brl/newKyc", kyc);
    expectError(early, 400, "VALIDATION_FAILED");
    expect(early.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([
      "uploadedDocumentId",
      "uploadedSelfieId",
    ]);

    expect((await uploadFile(send, urls.idUpload.uploadURLFront)).status).toBe(204);
    // One side is not the document: the back is missing still.
    expectError(await post(owner.secret, "/v1/brl/newKyc", kyc), 400, "VALIDATION_FAILED", "uploadedDocumentId");
    expect((await uploadFile(send, urls.idUpload.uploadURLBack, PNG_FILE, "image/png")).status).toBe(204);
    expect((await uploadFile(send, urls.selfieUpload.uploadURLFront)).status).toBe(204);

    // newKyc forwards the identity document to Avenia: it is created there and each of its sides' bytes uploaded.
    // The selfie is Avenia's already: the liveness document opened with its upload, named as it is.
    const aveniaCalls = () => ({ ...t.partners.simulator.stats().avenia.calls });
    const before = aveniaCalls();
    expect(ok(await post(owner.secret, "/v1/brl/newKyc", kyc)).id).toEqual(expect.any(String));
    const after = aveniaCalls();
    const callsOf = (route: string) => (after[route] ?? 0) - (before[route] ?? 0);
    expect([callsOf("POST /v2/documents"), callsOf("PUT /_uploads/avenia/{documentId}/{side}")]).toEqual([1, 2]);
    const decided = await t.followingKyc(() =>
      waitFor(
        async () => ok(await get(owner.secret, `/v1/brl/getKycStatus?taxId=${owner.taxId}`)),
        (status) => status.status === "COMPLETED",
        "the partner's decision",
      ),
    );
    expect(decided).toMatchObject({ result: "APPROVED" });

    // Each side is recorded with what arrived, and its bytes are stored whole under the owner, nothing else.
    const back = await sideOf(urls.idUpload.uploadURLBack);
    expect(back).toMatchObject({
      profileId: owner.profileId,
      purpose: "kyc_document",
      documentType: "DRIVERS-LICENSE",
      side: "back",
      status: "uploaded",
      contentType: "image/png",
      sizeBytes: PNG_FILE.length,
    });
    const directory = join(t.database.dataDir, "uploads", owner.profileId);
    expect(readFileSync(join(directory, back.storageKey!.split("/")[1]!))).toEqual(PNG_FILE);
    expect(readdirSync(directory).sort()).toEqual(
      (await t.app.db.documentUpload.findMany({ where: { profileId: owner.profileId } }))
        .map((row) => row.storageKey!.split("/")[1])
        .sort(),
    );
  });

  it("getSelfieLivenessUrl opens a selfie with its liveness check, which newKyc accepts as the selfie (also under /v1/brla)", async () => {
    const owner = await subaccountOwner();
    const selfie = ok(await get(owner.secret, `/v1/brla/getSelfieLivenessUrl?taxId=${owner.taxId}`));
    expect(selfie).toEqual({
      id: expect.any(String),
      livenessUrl: expect.any(String),
      uploadURLFront: expect.any(String),
      validateLivenessToken: expect.any(String),
    });
    // The liveness check is Avenia's: its page for the SELFIE-FROM-LIVENESS document kept with the upload.
    const { partnerDocumentId } = await sideOf(selfie.uploadURLFront);
    expect(selfie.livenessUrl).toBe(`${t.partners.simulator.url}/_hosted/avenia/liveness/${partnerDocumentId}`);
    expect((await uploadFile(send, selfie.uploadURLFront, PNG_FILE, "image/png")).status).toBe(204);
    const { idUpload } = await openKycUploads(owner);
    expect((await uploadFile(send, idUpload.uploadURLFront, PDF_FILE, "application/pdf")).status).toBe(204);
    const kyc = { ...LEVEL_ONE_KYC, subAccountId: owner.subAccountId, taxIdNumber: owner.taxId };
    ok(
      await post(owner.secret, "/v1/brl/newKyc", {
        ...kyc,
        uploadedDocumentId: idUpload.id,
        uploadedSelfieId: selfie.id,
      }),
    );
  });

  it("opens uploads only for the subject's individual subaccount", async () => {
    const owner = await subaccountOwner();
    const company = await subaccountOwner("COMPANY");
    const refused = [
      await post(owner.secret, "/v1/brl/getUploadUrls", { taxId: randomCpf(), documentType: "ID" }),
      await post(company.secret, "/v1/brl/getUploadUrls", { taxId: company.taxId, documentType: "ID" }),
      await get(company.secret, `/v1/brl/getSelfieLivenessUrl?taxId=${company.taxId}`),
      await post(owner.secret, "/v1/brl/getUploadUrls", { taxId: owner.taxId, documentType: "PASSPORT" }),
    ];
    for (const [index, response] of refused.entries())
      expectError(response, 400, "VALIDATION_FAILED", index === 3 ? "documentType" : "taxId");
    expect(
      await t.app.db.documentUpload.count({ where: { profileId: { in: [owner.profileId, company.profileId] } } }),
    ).toBe(0);
  });

  it("GraphQL: requestBrazilKycUploads and requestBrazilSelfieUpload open the same uploads; submitBrazilKyc accepts them once sent", async () => {
    const owner = await subaccountOwner();
    const opened = await t.graphql(
      "mutation ($input: RequestBrazilKycUploadsInput!) { requestBrazilKycUploads(input: $input) { identityDocument { documentId frontUploadUrl backUploadUrl livenessUrl } selfie { documentId frontUploadUrl livenessUrl livenessValidationToken } } }",
      { input: { taxId: owner.taxId, documentType: "DRIVERS_LICENSE", isDoubleSided: false } },
      owner.secret,
    );
    expect(opened.body.errors).toBeUndefined();
    const { identityDocument, selfie } = opened.body.data.requestBrazilKycUploads;
    expect(identityDocument).toMatchObject({ backUploadUrl: null, livenessUrl: null });
    expect(selfie.livenessValidationToken).toEqual(expect.any(String));
    const liveness = await t.graphql(
      "mutation ($taxId: String!) { requestBrazilSelfieUpload(taxId: $taxId) { selfieUpload { documentId frontUploadUrl livenessUrl } } }",
      { taxId: owner.taxId },
      owner.secret,
    );
    const { selfieUpload } = liveness.body.data.requestBrazilSelfieUpload;
    const { partnerDocumentId } = await sideOf(selfieUpload.frontUploadUrl);
    expect(selfieUpload.livenessUrl).toBe(`${t.partners.simulator.url}/_hosted/avenia/liveness/${partnerDocumentId}`);
    expect((await sideOf(identityDocument.frontUploadUrl)).documentType).toBe("DRIVERS-LICENSE");

    const submit = (uploads: object) =>
      t.graphql(
        "mutation ($input: SubmitBrazilKycInput!) { submitBrazilKyc(input: $input) { submissionId } }",
        { input: { ...LEVEL_ONE_KYC, subAccountId: owner.subAccountId, taxIdNumber: owner.taxId, ...uploads } },
        owner.secret,
      );
    const uploads = { uploadedDocumentId: identityDocument.documentId, uploadedSelfieId: selfie.documentId };
    expectGraphQLError(await submit(uploads), 400, "VALIDATION_FAILED");
    for (const url of [identityDocument.frontUploadUrl, selfie.frontUploadUrl])
      expect((await uploadFile(send, url)).status).toBe(204);
    const submitted = await submit(uploads);
    expect(submitted.body.errors).toBeUndefined();
    expect(submitted.body.data.submitBrazilKyc.submissionId).toEqual(expect.any(String));
  });
});

describe("newKyc with uploads it may not use", () => {
  it("refuses another owner's, unknown, unsent and wrong-purpose ids, naming the field, and changes nothing", async () => {
    const owner = await subaccountOwner();
    const stranger = await subaccountOwner();
    const mine = await uploadKycDocuments(send, owner.secret, owner.taxId);
    const theirs = await uploadKycDocuments(send, stranger.secret, stranger.taxId);
    const unsent = await openKycUploads(owner);
    const kyc = { ...LEVEL_ONE_KYC, subAccountId: owner.subAccountId, taxIdNumber: owner.taxId };

    const before = await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: owner.profileId } });
    const cases: [label: string, uploads: typeof mine, fields: string[]][] = [
      ["another owner's document", { ...mine, uploadedDocumentId: theirs.uploadedDocumentId }, ["uploadedDocumentId"]],
      ["another owner's selfie", { ...mine, uploadedSelfieId: theirs.uploadedSelfieId }, ["uploadedSelfieId"]],
      ["an unknown id", { ...mine, uploadedDocumentId: randomUUID() }, ["uploadedDocumentId"]],
      ["an id that is no id", { ...mine, uploadedSelfieId: "sandbox-selfie" }, ["uploadedSelfieId"]],
      [
        "a document whose file was not sent",
        { ...mine, uploadedDocumentId: unsent.idUpload.id },
        ["uploadedDocumentId"],
      ],
      [
        "a selfie as the document and the document as the selfie",
        { uploadedDocumentId: mine.uploadedSelfieId, uploadedSelfieId: mine.uploadedDocumentId },
        ["uploadedDocumentId", "uploadedSelfieId"],
      ],
    ];
    for (const [label, uploads, fields] of cases) {
      const response = await post(owner.secret, "/v1/brl/newKyc", { ...kyc, ...uploads });
      expectError(response, 400, "VALIDATION_FAILED");
      expect(
        response.body.error.details.map((detail: { field: string }) => detail.field),
        label,
      ).toEqual(fields);
      // Another owner's id is answered as one never issued: nothing tells that it exists.
      if (label.startsWith("another owner's"))
        expect(response.body.error.details[0].message).toBe(
          (await post(owner.secret, "/v1/brl/newKyc", { ...kyc, ...mine, [fields[0]!]: randomUUID() })).body.error
            .details[0].message,
        );
    }
    expect(await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: owner.profileId } })).toEqual(before);
    expectError(await get(owner.secret, `/v1/brl/getKycStatus?taxId=${owner.taxId}`), 404, "NOT_FOUND");

    // The stranger's own ids still serve the stranger; the owner's own serve the owner.
    ok(
      await post(stranger.secret, "/v1/brl/newKyc", {
        ...LEVEL_ONE_KYC,
        ...theirs,
        subAccountId: stranger.subAccountId,
        taxIdNumber: stranger.taxId,
      }),
    );
    ok(await post(owner.secret, "/v1/brl/newKyc", { ...kyc, ...mine }));
  });
});

describe("the upload URL", () => {
  it("takes its side's media types only, and files that begin as such files do; refusals leave it open", async () => {
    const owner = await subaccountOwner();
    const { idUpload, selfieUpload } = await openKycUploads(owner);
    const refusals: [url: string, file: Buffer, contentType: string, field: string][] = [
      [idUpload.uploadURLFront, Buffer.from("<html></html>"), "text/html", "Content-Type"],
      [selfieUpload.uploadURLFront, PDF_FILE, "application/pdf", "Content-Type"],
      [idUpload.uploadURLFront, JPEG_FILE, "image/png", "body"],
      [idUpload.uploadURLFront, Buffer.alloc(0), "image/jpeg", "body"],
    ];
    for (const [url, file, contentType, field] of refusals)
      expectError(await uploadFile(send, url, file, contentType), 400, "VALIDATION_FAILED", field);
    const { pathname, search } = new URL(idUpload.uploadURLFront);
    expectError(await t.request("PUT", `${pathname}${search}`), 400, "VALIDATION_FAILED", "Content-Type");
    expect(await sideOf(idUpload.uploadURLFront)).toMatchObject({ status: "pending", storageKey: null });
    expect(existsSync(join(t.database.dataDir, "uploads", owner.profileId))).toBe(false);

    // Parameters and case do not change a media type.
    expect((await uploadFile(send, idUpload.uploadURLFront, PDF_FILE, "Application/PDF; charset=binary")).status).toBe(
      204,
    );
    expect(await sideOf(idUpload.uploadURLFront)).toMatchObject({ status: "uploaded", contentType: "application/pdf" });
  });

  it("refuses a file over 10 MB with 413 PAYLOAD_TOO_LARGE, and takes one of exactly 10 MB", async () => {
    const owner = await subaccountOwner();
    const { idUpload } = await openKycUploads(owner);
    const file = (size: number) => Buffer.concat([JPEG_FILE, Buffer.alloc(size - JPEG_FILE.length)]);
    expectError(await uploadFile(send, idUpload.uploadURLFront, file(10 * 1024 * 1024 + 1)), 413, "PAYLOAD_TOO_LARGE");
    expect(await sideOf(idUpload.uploadURLFront)).toMatchObject({ status: "pending" });
    expect((await uploadFile(send, idUpload.uploadURLFront, file(10 * 1024 * 1024))).status).toBe(204);
    expect((await sideOf(idUpload.uploadURLFront)).sizeBytes).toBe(10 * 1024 * 1024);
  });

  it("refuses a forged, borrowed, missing or expired token with 403 INVALID_UPLOAD_URL, changing nothing", async () => {
    const owner = await subaccountOwner();
    const { idUpload, selfieUpload } = await openKycUploads(owner, true);
    const front = new URL(idUpload.uploadURLFront);
    const token = front.searchParams.get("token")!;
    const [profileId, expires, mac] = token.split(".") as [string, string, string];
    const flipped = `${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
    const selfieId = new URL(selfieUpload.uploadURLFront).pathname.split("/").pop();
    const path = (id: string, query: string) => `/v1/uploads/${id}${query}`;
    const frontId = front.pathname.split("/").pop()!;
    const forged = [
      path(frontId, `?token=${profileId}.${expires}.${flipped}`),
      // A later expiry under the same HMAC.
      path(frontId, `?token=${profileId}.${Number(expires) + 3600}.${mac}`),
      // Another owner named under the same HMAC.
      path(frontId, `?token=${randomUUID()}.${expires}.${mac}`),
      // The front's token on another side.
      path(selfieId!, `?token=${token}`),
      path(frontId, ""),
      path(frontId, "?token="),
      path(frontId, `?token=${token}&token=${token}`),
      path(randomUUID(), `?token=${token}`),
      path("not-an-id", `?token=${token}`),
    ];
    for (const url of forged) {
      const response = await t.request("PUT", url, { headers: { "content-type": "image/jpeg" }, rawBody: JPEG_FILE });
      expectError(response, 403, "INVALID_UPLOAD_URL");
    }
    const rows = await t.app.db.documentUpload.findMany({ where: { profileId: owner.profileId } });
    expect(rows.map((row) => row.status)).toEqual(["pending", "pending", "pending"]);

    // An hour later the URL has expired; the document shows it.
    clockOffsetMs = UPLOAD_URL_LIFETIME_MS + 1000;
    try {
      const expired = await uploadFile(send, idUpload.uploadURLBack);
      expectError(expired, 403, "INVALID_UPLOAD_URL");
      expect(expired.body.error.message).toMatch(/expired/);
    } finally {
      clockOffsetMs = 0;
    }
    expect((await uploadFile(send, idUpload.uploadURLBack)).status).toBe(204);
  });

  it("takes one file: a second PUT, or a racing one, is 409 UPLOAD_URL_USED and the first file stays", async () => {
    const owner = await subaccountOwner();
    const { idUpload, selfieUpload } = await openKycUploads(owner);
    expect((await uploadFile(send, idUpload.uploadURLFront)).status).toBe(204);
    const first = await sideOf(idUpload.uploadURLFront);
    expectError(await uploadFile(send, idUpload.uploadURLFront, PNG_FILE, "image/png"), 409, "UPLOAD_URL_USED");
    expect(await sideOf(idUpload.uploadURLFront)).toEqual(first);

    const racing = await Promise.all([
      uploadFile(send, selfieUpload.uploadURLFront),
      uploadFile(send, selfieUpload.uploadURLFront, PNG_FILE, "image/png"),
    ]);
    expect(racing.map((response) => response.status).sort()).toEqual([204, 409]);
    // The loser's bytes went: the owner's directory holds the two files the sides name.
    const stored = (await t.app.db.documentUpload.findMany({ where: { profileId: owner.profileId } })).map(
      (row) => row.storageKey!.split("/")[1],
    );
    expect(readdirSync(join(t.database.dataDir, "uploads", owner.profileId)).sort()).toEqual(stored.sort());
  });
});

describe("KYB documents", () => {
  it("kyb/documents -> PUT -> the document reads uploaded and ready; a double-sided one once both sides are in", async () => {
    const company = await subaccountOwner("COMPANY");
    const documents = `/v1/brl/kyb/documents?subAccountId=${company.subAccountId}`;
    const certificate = ok(
      await post(company.secret, documents, { documentType: "CERTIFICATE-OF-INCORPORATION" }),
      201,
    );
    expect(certificate).toEqual({ id: expect.any(String), uploadURLFront: expect.any(String) });
    const read = (id: string, prefix = "/v1/brl") =>
      get(company.secret, `${prefix}/kyb/documents/${id}?subAccountId=${company.subAccountId}`);
    expect(ok(await read(certificate.id))).toEqual({
      document: {
        id: certificate.id,
        documentType: "CERTIFICATE-OF-INCORPORATION",
        uploadStatusFront: "PENDING",
        ready: false,
      },
    });
    expect((await uploadFile(send, certificate.uploadURLFront, PDF_FILE, "application/pdf")).status).toBe(204);
    expect(ok(await read(certificate.id, "/v1/brla")).document).toMatchObject({
      uploadStatusFront: "UPLOADED",
      ready: true,
    });

    const card = ok(await post(company.secret, documents, { documentType: "ID", isDoubleSided: true }), 201);
    expect(card.uploadURLBack).toEqual(expect.any(String));
    expect((await uploadFile(send, card.uploadURLFront)).status).toBe(204);
    expect(ok(await read(card.id)).document).toMatchObject({
      uploadStatusFront: "UPLOADED",
      uploadStatusBack: "PENDING",
      ready: false,
    });
    expect((await uploadFile(send, card.uploadURLBack)).status).toBe(204);
    expect(ok(await read(card.id)).document).toMatchObject({ uploadStatusBack: "UPLOADED", ready: true });

    // A selfie comes with its liveness check and takes images only.
    const selfie = ok(await post(company.secret, documents, { documentType: "SELFIE-FROM-LIVENESS" }), 201);
    expect(selfie).toMatchObject({ livenessUrl: expect.any(String), validateLivenessToken: expect.any(String) });
    expectError(await uploadFile(send, selfie.uploadURLFront, PDF_FILE, "application/pdf"), 400, "VALIDATION_FAILED");

    // A lapsed URL shows on its side, with why.
    clockOffsetMs = UPLOAD_URL_LIFETIME_MS + 1000;
    try {
      expect(ok(await read(selfie.id)).document).toMatchObject({
        uploadStatusFront: "EXPIRED",
        uploadErrorFront: expect.any(String),
        ready: false,
      });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("refuses what is not a company subaccount's document to open or read, without telling another owner's apart; no UUID is 400", async () => {
    const company = await subaccountOwner("COMPANY");
    const individual = await subaccountOwner();
    const otherCompany = await subaccountOwner("COMPANY");
    const documents = (subAccountId: string) => `/v1/brl/kyb/documents?subAccountId=${subAccountId}`;
    const certificate = { documentType: "CERTIFICATE-OF-INCORPORATION" };
    expectError(
      await post(individual.secret, documents(individual.subAccountId), certificate),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );
    expectError(await post(company.secret, documents(otherCompany.subAccountId), certificate), 404, "NOT_FOUND");
    expectError(
      await post(company.secret, documents(company.subAccountId), { documentType: "PASSPORT", isDoubleSided: true }),
      400,
      "VALIDATION_FAILED",
      "isDoubleSided",
    );
    expectError(
      await post(company.secret, documents(company.subAccountId), {
        ...certificate,
        subAccountId: company.subAccountId,
      }),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );
    expectError(
      await post(company.secret, "/v1/brl/kyb/documents", certificate),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );

    const created = ok(await post(company.secret, documents(company.subAccountId), certificate), 201);
    const theirs = ok(await post(otherCompany.secret, documents(otherCompany.subAccountId), certificate), 201);
    const { idUpload } = await openKycUploads(individual);
    const read = (headers: Headers, id: string, subAccountId: string) =>
      get(headers, `/v1/brl/kyb/documents/${id}?subAccountId=${subAccountId}`);
    for (const response of [
      await read(company.secret, theirs.id, company.subAccountId),
      await read(company.secret, randomUUID(), company.subAccountId),
      await read(otherCompany.secret, created.id, otherCompany.subAccountId),
      await read(otherCompany.secret, created.id, company.subAccountId),
      // A KYC upload is no KYB document.
      await read(individual.secret, idUpload.id, individual.subAccountId),
    ])
      expectError(response, 404, "NOT_FOUND");
    expectError(await read(company.secret, "not-an-id", company.subAccountId), 400, "VALIDATION_FAILED", "documentId");
  });

  it("GraphQL: createBrazilKybDocument and brazilKybDocument, the same documents as REST", async () => {
    const company = await subaccountOwner("COMPANY");
    const created = await t.graphql(
      "mutation ($subAccountId: ID!, $input: CreateBrazilKybDocumentInput!) { createBrazilKybDocument(subAccountId: $subAccountId, input: $input) { documentUpload { documentId frontUploadUrl backUploadUrl } } }",
      { subAccountId: company.subAccountId, input: { documentType: "DRIVERS_LICENSE", isDoubleSided: true } },
      company.secret,
    );
    expect(created.body.errors).toBeUndefined();
    const { documentId, frontUploadUrl, backUploadUrl } = created.body.data.createBrazilKybDocument.documentUpload;
    for (const url of [frontUploadUrl, backUploadUrl]) expect((await uploadFile(send, url)).status).toBe(204);
    const query =
      "query ($subAccountId: ID!, $documentId: ID!) { brazilKybDocument(subAccountId: $subAccountId, documentId: $documentId) { documentId documentType front back ready } }";
    const read = await t.graphql(query, { subAccountId: company.subAccountId, documentId }, company.secret);
    expect(read.body.data.brazilKybDocument).toEqual({
      documentId,
      documentType: "DRIVERS_LICENSE",
      front: "UPLOADED",
      back: "UPLOADED",
      ready: true,
    });
    expect(
      ok(await get(company.secret, `/v1/brl/kyb/documents/${documentId}?subAccountId=${company.subAccountId}`))
        .document,
    ).toMatchObject({ documentType: "DRIVERS-LICENSE", ready: true });
    expectGraphQLError(
      await t.graphql(query, { subAccountId: company.subAccountId, documentId: randomUUID() }, company.secret),
      404,
      "NOT_FOUND",
    );
  });
});
