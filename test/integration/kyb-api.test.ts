import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { expectError, expectGraphQLError, ok, waitFor } from "../support/kit.js";
import {
  BENEFICIAL_OWNER,
  addBeneficialOwner,
  prepareKybLevelOne,
  randomCpf,
  subaccountOwner,
  uploadKybDocument,
  uploadKycDocuments,
} from "../support/kyc.js";

/**
 * API-driven level 1 KYB of a BR company subaccount (issue 14): its ultimate beneficial owners
 * (`POST /v1/brl/kyb/ubos`) and the submission (`POST /v1/brl/kyb/new-level-1/api`), both naming KYB documents of
 * the subaccount whose files arrived, and their GraphQL fields. The partner decides at once
 * (PARTNER_SIM_KYC_DECISION_MS=0) unless a test slows it, and `t`'s reconciler follows its decisions; `other` is a
 * second instance on the same database and partners.
 */

let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  const limits = { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" };
  t = await startTestApp(limits);
  other = await startTestApp(limits, { database: t.database, partners: t.partners });
  t.app.kycReconciler.start();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

type Headers = Record<string, string>;
type Owner = Awaited<ReturnType<typeof subaccountOwner>>;
const post = (headers: Headers, path: string, body: unknown = {}) => t.request("POST", path, { headers, body });
const get = (headers: Headers, path: string) => t.request("GET", path, { headers });
const ubos = (subAccountId: string, prefix = "/v1/brl") => `${prefix}/kyb/ubos?subAccountId=${subAccountId}`;
const levelOne = (subAccountId: string, prefix = "/v1/brl") =>
  `${prefix}/kyb/new-level-1/api?subAccountId=${subAccountId}`;
const company = () => subaccountOwner(t, "COMPANY");
/** An owner's KYB documents of one type (ready unless `sent` is false). */
const kybDocument = (owner: Owner, documentType: string, options?: { sent?: boolean; isDoubleSided?: boolean }) =>
  uploadKybDocument(t.send, owner.secret, owner.subAccountId, documentType, options);

/** What the database holds of an owner's KYB: its case and its beneficial owners. */
async function kybState(owner: Owner) {
  return {
    kycCase: await t.app.db.kycCase.findFirstOrThrow({
      where: { profileId: owner.profileId, customerType: "business" },
    }),
    owners: await t.app.db.kybBeneficialOwner.findMany({
      where: { profileId: owner.profileId },
      orderBy: { id: "asc" },
    }),
  };
}

/** The owner's KYB attempt as `app` reads it. */
const attempt = (app: TestApp, headers: Headers, attemptId: string) =>
  app.request("GET", `/v1/brl/kyb/attempt-status?attemptId=${attemptId}`, { headers });

/** The owner's KYB attempt once the partner's decision on it was observed. */
const decidedAttempt = async (app: TestApp, headers: Headers, attemptId: string) =>
  waitFor(
    async () => ok(await attempt(app, headers, attemptId)),
    (status) => status.status === "COMPLETED",
    "the partner's KYB decision",
  );

const fieldsOf = (response: { body: any }) =>
  (response.body.error?.details ?? []).map((detail: { field: string }) => detail.field);

describe("API KYB of a company subaccount", () => {
  it("kyb/ubos -> 201 {id}; kyb/new-level-1/api -> 200 {id}, in review at once and decided after the delay", async () => {
    const owner = await company();
    const uploadedIdentificationId = await kybDocument(owner, "PASSPORT");
    const uploadedSelfieId = await kybDocument(owner, "SELFIE-FROM-LIVENESS");
    const ubo = ok(
      await post(owner.secret, ubos(owner.subAccountId, "/v1/brla"), {
        ...BENEFICIAL_OWNER,
        uploadedIdentificationId,
        uploadedSelfieId,
      }),
      201,
    );
    expect(ubo).toEqual({ id: expect.any(String) });
    // Only ids are kept: the person's data went to the provider.
    const [stored] = (await kybState(owner)).owners;
    expect(Object.keys(stored!).sort()).toEqual(
      [
        "createdAt",
        "id",
        "identificationDocumentId",
        "kycCaseId",
        "profileId",
        "providerOwnerId",
        "selfieDocumentId",
      ].sort(),
    );
    expect(stored).toMatchObject({
      id: ubo.id,
      identificationDocumentId: uploadedIdentificationId,
      selfieDocumentId: uploadedSelfieId,
    });

    const body = { ...(await prepareKybLevelOne(t.send, owner.secret, owner)), uboIds: [ubo.id] };
    // The partner decides two seconds after the submission: time to see it in review. Avenia schedules its decision
    // once the attempt is processing, so the timing stays until the review has been seen.
    t.partners.simulator.setTiming({ kycDecisionMs: 2000 });
    let submitted: { id: string };
    try {
      submitted = ok(await other.request("POST", levelOne(owner.subAccountId), { headers: owner.secret, body }));
      expect(submitted).toEqual({ id: expect.any(String) });
      expect(ok(await attempt(other, owner.secret, submitted.id))).toEqual({ status: "PROCESSING" });
      const kycStatus = `/v1/brl/getKycStatus?taxId=${owner.taxId}`;
      expect(ok(await other.request("GET", kycStatus, { headers: owner.secret }))).toMatchObject({
        type: "KYB",
        status: "PROCESSING",
      });
      // A second submission while the first is in review is refused, and the first stands.
      expectError(await post(owner.secret, levelOne(owner.subAccountId), body), 400, "VALIDATION_FAILED");
    } finally {
      t.partners.simulator.setTiming({ kycDecisionMs: 0 });
    }

    // Once the partner decides, the decision takes effect: approved, level 1 (read by `t` too).
    await decidedAttempt(other, owner.secret, submitted.id);
    expect(ok(await attempt(t, owner.secret, submitted.id))).toEqual({ status: "COMPLETED", result: "APPROVED" });
    expect(ok(await get(owner.secret, `/v1/brl/getUser?taxId=${owner.taxId}`))).toMatchObject({ kycLevel: 1 });
  });

  it("sandboxReject: true has the partner reject the attempt", async () => {
    const owner = await company();
    const body = { ...(await prepareKybLevelOne(t.send, owner.secret, owner)), sandboxReject: true };
    const { id } = ok(await post(owner.secret, levelOne(owner.subAccountId, "/v1/brla"), body));
    expect(await decidedAttempt(t, owner.secret, id)).toEqual({
      status: "COMPLETED",
      result: "REJECTED",
      retryable: true,
    });
  });

  it("GraphQL: createBrazilKybBeneficialOwner and submitBrazilKyb, followed by brazilKybAttempt", async () => {
    const owner = await company();
    const identification = await kybDocument(owner, "DRIVERS-LICENSE", { isDoubleSided: true });
    const created = await t.graphql(
      "mutation ($subAccountId: ID!, $input: CreateBrazilKybBeneficialOwnerInput!) { createBrazilKybBeneficialOwner(subAccountId: $subAccountId, input: $input) { beneficialOwnerId } }",
      {
        subAccountId: owner.subAccountId,
        input: { ...BENEFICIAL_OWNER, hasControl: "MANAGING_DIRECTOR", uploadedIdentificationId: identification },
      },
      owner.secret,
    );
    expect(created.body.errors).toBeUndefined();
    const { beneficialOwnerId } = created.body.data.createBrazilKybBeneficialOwner;

    // The questionnaire's answers under GraphQL's enum names (REST: receive_payments_for_goods_and_services, 11-50, 1m_to_10m).
    const companyData = {
      ...(await prepareKybLevelOne(t.send, owner.secret, owner)),
      reasonForAccountOpening: "RECEIVE_PAYMENTS_FOR_GOODS_AND_SERVICES",
      sourceOfFundsAndIncome: "SALES_OF_GOODS_AND_SERVICES",
      numberOfEmployees: "EMPLOYEES_11_TO_50",
      estimatedAnnualRevenueUsd: "FROM_1M_TO_10M",
    };
    const submit = (input: object) =>
      t.graphql(
        "mutation ($subAccountId: ID!, $input: SubmitBrazilKybInput!) { submitBrazilKyb(subAccountId: $subAccountId, input: $input) { attemptId } }",
        { subAccountId: owner.subAccountId, input },
        owner.secret,
      );
    expectGraphQLError(await submit({ ...companyData, uboIds: [randomUUID()] }), 400, "VALIDATION_FAILED");
    const submitted = await submit({ ...companyData, uboIds: [beneficialOwnerId] });
    expect(submitted.body.errors).toBeUndefined();
    const { attemptId } = submitted.body.data.submitBrazilKyb;
    await decidedAttempt(t, owner.secret, attemptId);
    const read = await t.graphql(
      "query ($id: ID!) { brazilKybAttempt(attemptId: $id) { status result } }",
      { id: attemptId },
      owner.secret,
    );
    expect(read.body.data.brazilKybAttempt).toEqual({ status: "COMPLETED", result: "APPROVED" });
  });
});

describe("kyb/ubos with documents it may not use", () => {
  it("refuses another owner's, unknown, unsent, KYC and wrong-type ids, naming the field, and changes nothing", async () => {
    const owner = await company();
    const stranger = await company();
    // The same profile's individual subaccount: its KYC uploads are no KYB documents of the company.
    const cpf = randomCpf();
    ok(
      await post(owner.secret, "/v1/brl/createSubaccount", {
        accountType: "INDIVIDUAL",
        name: "Ana Souza",
        taxId: cpf,
      }),
    );
    const { uploadedDocumentId: kycDocument } = await uploadKycDocuments(t.send, owner.secret, cpf);
    const identification = await kybDocument(owner, "ID");
    const selfie = await kybDocument(owner, "SELFIE");
    const cases: [label: string, documents: object, fields: string[]][] = [
      [
        "another owner's document",
        { uploadedIdentificationId: await kybDocument(stranger, "ID") },
        ["uploadedIdentificationId"],
      ],
      ["an unknown id", { uploadedIdentificationId: randomUUID() }, ["uploadedIdentificationId"]],
      ["an id that is no id", { uploadedIdentificationId: "passport-1" }, ["uploadedIdentificationId"]],
      [
        "a document whose file was not sent",
        { uploadedIdentificationId: await kybDocument(owner, "PASSPORT", { sent: false }) },
        ["uploadedIdentificationId"],
      ],
      ["a KYC upload", { uploadedIdentificationId: kycDocument }, ["uploadedIdentificationId"]],
      [
        "a company document as the identification",
        { uploadedIdentificationId: await kybDocument(owner, "CERTIFICATE-OF-INCORPORATION") },
        ["uploadedIdentificationId"],
      ],
      [
        "the selfie and the identification swapped",
        { uploadedIdentificationId: selfie, uploadedSelfieId: identification },
        ["uploadedIdentificationId", "uploadedSelfieId"],
      ],
    ];
    const before = await kybState(owner);
    for (const [label, documents, fields] of cases) {
      const response = await post(owner.secret, ubos(owner.subAccountId), { ...BENEFICIAL_OWNER, ...documents });
      expectError(response, 400, "VALIDATION_FAILED");
      expect(fieldsOf(response), label).toEqual(fields);
    }
    // Another owner's document is answered as one never issued.
    const [theirs, unknown] = [cases[0]![1], cases[1]![1]];
    expect(
      (await post(owner.secret, ubos(owner.subAccountId), { ...BENEFICIAL_OWNER, ...theirs })).body.error,
    ).toMatchObject({
      message: (await post(owner.secret, ubos(owner.subAccountId), { ...BENEFICIAL_OWNER, ...unknown })).body.error
        .message,
    });
    expect(await kybState(owner)).toEqual(before);

    // The owner's own documents serve; the identification then identifies no other owner.
    const valid = { ...BENEFICIAL_OWNER, uploadedIdentificationId: identification, uploadedSelfieId: selfie };
    ok(await post(owner.secret, ubos(owner.subAccountId), valid), 201);
    expectError(
      await post(owner.secret, ubos(owner.subAccountId), { ...valid, uploadedSelfieId: undefined }),
      400,
      "VALIDATION_FAILED",
      "uploadedIdentificationId",
    );
    expect((await kybState(owner)).owners).toHaveLength(1);
  });
});

describe("kyb/new-level-1/api with what it may not name", () => {
  it("refuses unknown, another owner's and unsent documents and UBOs, and another CNPJ, naming the field, and changes nothing", async () => {
    const owner = await company();
    const stranger = await company();
    const body = await prepareKybLevelOne(t.send, owner.secret, owner);
    const theirs = await prepareKybLevelOne(t.send, stranger.secret, stranger);
    const unsentCertificate = await kybDocument(owner, "CERTIFICATE-OF-INCORPORATION", { sent: false });
    const cases: [label: string, change: object, fields: string[]][] = [
      [
        "another owner's certificate",
        { certificateOfIncorporationDocumentId: theirs.certificateOfIncorporationDocumentId },
        ["certificateOfIncorporationDocumentId"],
      ],
      [
        "an unknown certificate",
        { certificateOfIncorporationDocumentId: randomUUID() },
        ["certificateOfIncorporationDocumentId"],
      ],
      [
        "a certificate whose file was not sent",
        { certificateOfIncorporationDocumentId: unsentCertificate },
        ["certificateOfIncorporationDocumentId"],
      ],
      [
        "the company documents swapped",
        {
          certificateOfIncorporationDocumentId: body.taxIdentificationDocumentId,
          taxIdentificationDocumentId: body.certificateOfIncorporationDocumentId,
        },
        ["certificateOfIncorporationDocumentId", "taxIdentificationDocumentId"],
      ],
      ["an unknown tax document", { taxIdentificationDocumentId: randomUUID() }, ["taxIdentificationDocumentId"]],
      ["another owner's UBO", { uboIds: [...body.uboIds, ...theirs.uboIds] }, ["uboIds.1"]],
      ["an unknown UBO", { uboIds: [randomUUID(), ...body.uboIds] }, ["uboIds.0"]],
      ["another CNPJ", { taxIdentificationNumberTin: stranger.taxId }, ["taxIdentificationNumberTin"]],
    ];
    const before = await kybState(owner);
    for (const [label, change, fields] of cases) {
      const response = await post(owner.secret, levelOne(owner.subAccountId), { ...body, ...change });
      expectError(response, 400, "VALIDATION_FAILED");
      expect(fieldsOf(response), label).toEqual(fields);
    }
    expect(await kybState(owner)).toEqual(before);
    expectError(await get(owner.secret, `/v1/brl/getKycStatus?taxId=${owner.taxId}`), 404, "NOT_FOUND");

    // Each owner's own ids still serve that owner.
    ok(await post(stranger.secret, levelOne(stranger.subAccountId), theirs));
    ok(await post(owner.secret, levelOne(owner.subAccountId), body));
  });
});

describe("the subaccount and the body", () => {
  it("another owner's or an unknown subaccount is 404; an individual's or no UUID is 400; nothing changes", async () => {
    const owner = await company();
    const stranger = await company();
    const individual = await subaccountOwner(t);
    const body = await prepareKybLevelOne(t.send, owner.secret, owner);
    const ubo = { ...BENEFICIAL_OWNER, uploadedIdentificationId: await kybDocument(owner, "ID") };
    const before = await kybState(owner);
    for (const subAccountId of [owner.subAccountId, randomUUID()]) {
      const caller = subAccountId === owner.subAccountId ? stranger.secret : owner.secret;
      expectError(await post(caller, ubos(subAccountId), ubo), 404, "NOT_FOUND");
      expectError(await post(caller, levelOne(subAccountId), body), 404, "NOT_FOUND");
    }
    expectError(await post(owner.secret, ubos("not-an-id"), ubo), 400, "VALIDATION_FAILED", "subAccountId");
    expectError(await post(owner.secret, levelOne("not-an-id"), body), 400, "VALIDATION_FAILED", "subAccountId");
    expectError(
      await post(individual.secret, ubos(individual.subAccountId), ubo),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );
    expectError(
      await post(individual.secret, levelOne(individual.subAccountId), body),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );
    expect(await kybState(owner)).toEqual(before);
    expect(await kybState(stranger)).toMatchObject({ owners: [], kycCase: { status: "not_started" } });
  });

  it("refuses a bad body with 400 naming the field", async () => {
    const owner = await company();
    const body = await prepareKybLevelOne(t.send, owner.secret, owner);
    const { fullName: _left, ...withoutName } = BENEFICIAL_OWNER;
    const ubo = { ...BENEFICIAL_OWNER, uploadedIdentificationId: await kybDocument(owner, "ID") };
    const before = await kybState(owner);
    const refusals: [path: string, body: object, field: string][] = [
      [ubos(owner.subAccountId), { ...withoutName, uploadedIdentificationId: randomUUID() }, "fullName"],
      [ubos(owner.subAccountId), { ...ubo, percentageOfOwnership: "101" }, "percentageOfOwnership"],
      [ubos(owner.subAccountId), { ...ubo, hasControl: "Overlord" }, "hasControl"],
      [ubos(owner.subAccountId), { ...ubo, dateOfBirth: "29/02/1980" }, "dateOfBirth"],
      [ubos(owner.subAccountId), { ...ubo, subAccountId: owner.subAccountId }, "subAccountId"],
      ["/v1/brl/kyb/ubos", ubo, "subAccountId"],
      [levelOne(owner.subAccountId), { ...body, uboIds: [] }, "uboIds"],
      [levelOne(owner.subAccountId), { ...body, uboIds: [body.uboIds[0], body.uboIds[0]] }, "uboIds"],
      [levelOne(owner.subAccountId), { ...body, numberOfEmployees: "12" }, "numberOfEmployees"],
      [levelOne(owner.subAccountId), { ...body, estimatedMonthlyVolumeUsd: "0" }, "estimatedMonthlyVolumeUsd"],
      [levelOne(owner.subAccountId), { ...body, website: "acme" }, "website"],
      [levelOne(owner.subAccountId), { ...body, companyLegalName: undefined }, "companyLegalName"],
      ["/v1/brl/kyb/new-level-1/api", body, "subAccountId"],
    ];
    for (const [path, sent, field] of refusals)
      expectError(await post(owner.secret, path, sent), 400, "VALIDATION_FAILED", field);
    // additionalProperties: false, as the reference.
    const extra = await post(owner.secret, levelOne(owner.subAccountId), { ...body, companyNickname: "Acme" });
    expectError(extra, 400, "VALIDATION_FAILED");
    expect(JSON.stringify(extra.body.error.details)).toContain("companyNickname");
    expect(await kybState(owner)).toEqual(before);
  });

  it("adds a second beneficial owner to the subaccount and names both", async () => {
    const owner = await company();
    const body = await prepareKybLevelOne(t.send, owner.secret, owner);
    const second = await addBeneficialOwner(t.send, owner.secret, owner.subAccountId);
    ok(await post(owner.secret, levelOne(owner.subAccountId), { ...body, uboIds: [...body.uboIds, second] }));
  });
});
