import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { kycInformation } from "../../src/kyc/domestic.js";
import { AlfredpayClient } from "../../src/providers/alfredpay/client.js";
import type { Corridor } from "../../src/reference-data/corridors.js";
import { ALFREDPAY_PREFIX } from "../../packages/partner-simulator/src/index.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { LEVEL_ONE_KYC, randomCnpj, randomCpf, uploadKycDocuments } from "../support/kyc.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError, ok, waitFor } from "../support/kit.js";

/**
 * Customers and KYC/KYB over REST (CONTRACT.md, KYC/KYB and fiat accounts; issue 6): the domestic API and
 * hosted flows, BR subaccounts with level 1 and hosted KYB, rejection and retry, delegation with the
 * corridor and the child's customer type, and what ramps and ramp-info read, on the project's engine.
 *
 * `t`'s partners decide finished attempts at once (PARTNER_SIM_KYC_DECISION_MS=0); `slow`'s take ten minutes, so a
 * finished attempt stays in review. The decisions are observed only while a test waits for one (`decision`): what a
 * test reads between its own steps is what those steps did.
 */

let t: TestApp;
let slow: TestApp;
beforeAll(async () => {
  const limits = { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" };
  [t, slow] = await Promise.all([
    startTestApp(limits),
    startTestApp({ ...limits, PARTNER_SIM_KYC_DECISION_MS: "600000" }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), slow?.close()]);
});

type Headers = Record<string, string>;
/** Where Alfredpay is asked how a KYC attempt stands, and where a KYC submission is sent to it. */
const STATUS_ROUTE = `GET ${ALFREDPAY_PREFIX}/customers/{customerId}/kyc/{submissionId}/status`;
const SUBMIT_ROUTE = `POST ${ALFREDPAY_PREFIX}/customers/{customerId}/kyc/{submissionId}/submit`;
const KYC_INFO = {
  firstName: "Ana",
  lastName: "Souza",
  dateOfBirth: "1990-04-12",
  documentType: "NATIONAL_ID",
  documentNumber: "12345678",
};

async function newUser(
  app: TestApp = t,
  email?: string,
): Promise<{ profileId: string; secret: Headers; session: Headers }> {
  const session = await app.signIn(email);
  const credential = await app.createCredential(session.headers);
  return { profileId: session.profileId, session: session.headers, secret: { "x-api-key": credential.secretKey } };
}

const post = (headers: Headers, path: string, body: unknown = {}, app = t) =>
  app.request("POST", path, { headers, body });

/** A manager allowed MX only, one individual child of it, and the manager's key selecting that child. */
async function individualChildOfMxManager() {
  const manager = await newUser();
  ok(
    await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["MX"], isActive: true },
    }),
    201,
  );
  const child = ok(
    await post(manager.secret, "/v1/managed-profiles", {
      externalSubjectId: `subject-${randomUUID()}`,
      contactEmail: `child-${randomUUID()}@example.com`,
      customerType: "individual",
    }),
    201,
  );
  return { manager, child, selecting: { ...manager.secret, "x-managed-profile-id": child.managedProfile.profileId } };
}
const get = (headers: Headers, path: string, app = t) => app.request("GET", path, { headers });
const status = async (headers: Headers, country: string, type = "INDIVIDUAL", app = t) =>
  ok(await get(headers, `/v1/domestic/getKycStatus?country=${country}&type=${type}`, app)).status;
const rampInfo = async (headers: Headers, corridor: Corridor) =>
  ok(await get(headers, "/v1/ramp-info")).corridors[corridor].kycStatus;

/** Reads, with the app's KYC reconciler following the partners (as the workers do), until `done` holds. */
const observed = <T>(app: TestApp, read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
  app.followingKyc(() => waitFor(read, done, what));
/** A domestic case's status once the partner's decision on its attempt was observed. */
const decision = (headers: Headers, country: string, type = "INDIVIDUAL", app = t) =>
  observed(
    app,
    () => status(headers, country, type, app),
    (read) => read === "SUCCESS" || read === "FAILED",
    `the partner's decision in ${country}`,
  );
/** A BR case's KYC status once the partner's decision on its attempt was observed. */
const brazilDecision = (headers: Headers, taxId: string) =>
  observed(
    t,
    async () => ok(await get(headers, `/v1/brl/getKycStatus?taxId=${taxId}`)),
    (read) => read.status === "COMPLETED",
    "the partner's BR decision",
  );
/** A BR hosted KYB attempt's status once the partner's decision on it was observed. */
const kybAttemptDecision = (headers: Headers, attemptId: string) =>
  observed(
    t,
    async () => ok(await get(headers, `/v1/brl/kyb/attempt-status?attemptId=${attemptId}`)),
    (read) => read.status === "COMPLETED",
    "the partner's BR KYB decision",
  );
/** The subject's case in a corridor as one customer type, as stored. */
const storedCase = (profileId: string, corridor: Corridor, customerType = "individual") =>
  t.app.db.kycCase.findUniqueOrThrow({
    where: { profileId_corridor_customerType: { profileId, corridor, customerType } },
  });
/** The partner's hosted page of a case's current attempt (the simulator's). */
const hostedPage = async (path: string, profileId: string, corridor: Corridor, customerType = "individual") =>
  `${t.partners.simulator.url}/_hosted/${path}/${(await storedCase(profileId, corridor, customerType)).partnerAttemptId}`;

describe("domestic KYC through the API", () => {
  it("goes from customer to approved: CONSULTED, USER_COMPLETED, VERIFYING, then SUCCESS; ramp-info follows", async () => {
    const user = await newUser();
    expectError(await get(user.secret, "/v1/domestic/getKycStatus?country=MX"), 404, "NOT_FOUND");
    expect(await rampInfo(user.secret, "MX")).toBe("not_started");

    const created = ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "MX" }));
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
    const consulted = ok(await get(user.secret, "/v1/domestic/getKycStatus?country=MX"));
    expect(consulted).toMatchObject({ country: "MX", status: "CONSULTED" });
    expect(consulted.alfred_pay_id).toMatch(/^[0-9a-f-]{36}$/);

    const { submissionId } = ok(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "MX", ...KYC_INFO }),
    );
    expect(await status(user.secret, "MX")).toBe("USER_COMPLETED");
    expect(await rampInfo(user.secret, "MX")).toBe("pending");
    expect(ok(await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "MX", submissionId }))).toEqual({
      success: true,
    });
    expect(await status(user.secret, "MX")).toBe("VERIFYING");
    expect(await rampInfo(user.secret, "MX")).toBe("pending");
    expect(await decision(user.secret, "MX")).toBe("SUCCESS");
    expect(await rampInfo(user.secret, "MX")).toBe("approved");
    expect(ok(await get(user.secret, "/v1/domestic/alfredpayStatus?country=MX"))).toMatchObject({
      country: "MX",
      status: "SUCCESS",
      creationTime: created.createdAt,
    });
    // Other corridors are untouched.
    expect(await rampInfo(user.secret, "CO")).toBe("not_started");
  });

  it("keeps a finished attempt in review until the partner decides", async () => {
    const user = await newUser(slow);
    ok(await post(user.secret, "/v1/co/createIndividualCustomer", {}, slow));
    const { submissionId } = ok(await post(user.secret, "/v1/co/submitKycInformation", KYC_INFO, slow));
    ok(await post(user.secret, "/v1/co/sendKycSubmission", { submissionId }, slow));
    expect(await status(user.secret, "CO", "INDIVIDUAL", slow)).toBe("VERIFYING");
    const info = ok(await get(user.secret, "/v1/ramp-info", slow));
    // ramp-info tells the contract's four states: a case in review is still pending there.
    expect(info.corridors.CO).toEqual({ kycStatus: "pending", canBuy: false, canSell: false });
    const { body } = await slow.graphql("{ customers { corridor kycStatus } }", {}, user.secret);
    expect(body.data.customers).toEqual([{ corridor: "CO", kycStatus: "IN_REVIEW" }]);
    // The partner is asked while it has not decided, and asked again: the case stays in review.
    const row = await slow.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } });
    expect(row).toMatchObject({ status: "in_review", partnerAttemptId: expect.any(String) });
    expect(row.nextCheckAt).not.toBeNull();
    const checks = () => slow.partners.simulator.stats().alfredpay.calls[STATUS_ROUTE] ?? 0;
    const before = checks();
    await observed(
      slow,
      async () => checks(),
      (count) => count >= before + 2,
      "two checks at the partner",
    );
    expect(await status(user.secret, "CO", "INDIVIDUAL", slow)).toBe("VERIFYING");
    const checked = await slow.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } });
    expect(checked).toMatchObject({ status: "in_review", decidedAt: null });
    expect(checked.nextCheckAt!.getTime()).toBeGreaterThan(row.nextCheckAt!.getTime());
  });

  it("ramp-info shows the partner's decision once it is observed, though the subject's state stayed cached", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/co/createIndividualCustomer", {}));
    const { submissionId } = ok(await post(user.secret, "/v1/co/submitKycInformation", KYC_INFO));
    ok(await post(user.secret, "/v1/co/sendKycSubmission", { submissionId }));
    const colombia = async () => ok(await get(user.secret, "/v1/ramp-info")).corridors.CO;
    // Asked twice before the decision is observed: the second answer comes from what the first one cached.
    expect(await colombia()).toEqual({ kycStatus: "pending", canBuy: false, canSell: false });
    expect(await colombia()).toEqual({ kycStatus: "pending", canBuy: false, canSell: false });
    // Observed well within the 30 s the subject's state stays cached (the wait gives up after 20 s).
    await observed(t, colombia, (corridor) => corridor.kycStatus !== "pending", "the partner's decision");
    expect(await colombia()).toEqual({ kycStatus: "approved", canBuy: true, canSell: true });
  });

  it("refuses what the state does not allow, with 400 or 404, and changes nothing", async () => {
    const user = await newUser();
    expectError(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "US", ...KYC_INFO }),
      404,
      "NOT_FOUND",
    );
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "US" }));
    expectError(
      await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "US" }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "US", ...KYC_INFO, firstName: "" }),
      400,
      "VALIDATION_FAILED",
      "firstName",
    );
    expectError(
      await post(user.secret, "/v1/domestic/submitKycInformation", {
        country: "US",
        ...KYC_INFO,
        dateOfBirth: "12/04/1990",
      }),
      400,
      "VALIDATION_FAILED",
      "dateOfBirth",
    );
    const { submissionId } = ok(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "US", ...KYC_INFO }),
    );
    expectError(
      await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "US", submissionId: randomUUID() }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "US", submissionId: "nope" }),
      400,
      "VALIDATION_FAILED",
      "submissionId",
    );
    ok(await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "US", submissionId }));
    expect(await decision(user.secret, "US")).toBe("SUCCESS");
    const before = await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } });
    expectError(
      await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "US", submissionId }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "US", ...KYC_INFO }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(await get(user.secret, "/v1/domestic/getKycRedirectLink?country=US"), 400, "VALIDATION_FAILED");
    expectError(await post(user.secret, "/v1/domestic/retryKyc", { country: "US" }), 400, "VALIDATION_FAILED");
    expect(await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } })).toEqual(before);
  });

  it("takes the country from the alias, the query or the body; a conflict is 400", async () => {
    const user = await newUser();
    expectError(
      await post(user.secret, "/v1/mx/createIndividualCustomer", { country: "US" }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await post(user.secret, "/v1/domestic/createIndividualCustomer?country=CO", { country: "MX" }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await post(user.secret, "/v1/domestic/createIndividualCustomer", {}),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "BR" }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
    expectError(
      await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "MX", name: "extra" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(await t.app.db.kycCase.count({ where: { profileId: user.profileId } })).toBe(0);
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer?country=MX", {}));
    expect(await status(user.secret, "MX")).toBe("CONSULTED");
    expectError(
      await post(user.secret, "/v1/ar/submitKybInformation", { businessName: "Acme", taxId: "30-1" }),
      400,
      "VALIDATION_FAILED",
      "country",
    );
  });

  it("rejects a name with the rejection marker, keeps the partner's reason internal, and retries to approval", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "CO" }));
    const first = ok(
      await post(user.secret, "/v1/domestic/submitKycInformation", {
        country: "CO",
        ...KYC_INFO,
        lastName: "Rejectable",
      }),
    );
    ok(await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "CO", submissionId: first.submissionId }));
    expect(await decision(user.secret, "CO")).toBe("FAILED");
    const failed = ok(await get(user.secret, "/v1/domestic/getKycStatus?country=CO"));
    expect(failed).toMatchObject({ status: "FAILED", lastFailure: "The verification was not approved." });
    // The partner's words are kept for support, never shown.
    const { statusReason } = await storedCase(user.profileId, "CO");
    expect(statusReason).toBe("Identity could not be verified");
    expect(JSON.stringify(failed)).not.toContain(statusReason);
    expect(await rampInfo(user.secret, "CO")).toBe("rejected");

    expect(ok(await post(user.secret, "/v1/domestic/retryKyc", { country: "CO" }))).toEqual({ success: true });
    expect(await status(user.secret, "CO")).toBe("CONSULTED");
    const second = ok(await post(user.secret, "/v1/domestic/submitKycInformation", { country: "CO", ...KYC_INFO }));
    ok(await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "CO", submissionId: second.submissionId }));
    expect(await decision(user.secret, "CO")).toBe("SUCCESS");
  });

  it("lets exactly one of concurrent sends of a submission through, to the partner too", async () => {
    const user = await newUser(slow);
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "MX" }, slow));
    const { submissionId } = ok(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "MX", ...KYC_INFO }, slow),
    );
    const partnerSends = () => slow.partners.simulator.stats().alfredpay.calls[SUBMIT_ROUTE] ?? 0;
    const sentBefore = partnerSends();
    const sends = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(user.secret, "/v1/domestic/sendKycSubmission", { country: "MX", submissionId }, slow),
      ),
    );
    // The others are refused here, as a change made meanwhile: not with the partner's refusal of a second send.
    expect(sends.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(partnerSends() - sentBefore).toBe(1);
    expect(await status(user.secret, "MX", "INDIVIDUAL", slow)).toBe("VERIFYING");
    const creates = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "CO" }, slow),
      ),
    );
    expect(creates.map((response) => response.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await slow.app.db.kycCase.count({ where: { profileId: user.profileId } })).toBe(2);
  });

  it("answers a send as sent when the partner's callback had its attempt observed before the partner's answer came", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "MX" }));
    const { submissionId } = ok(
      await post(user.secret, "/v1/domestic/submitKycInformation", { country: "MX", ...KYC_INFO }),
    );
    const finish = AlfredpayClient.prototype.finishKycSubmission;
    // Between the partner taking the send and its answer: the callback it sent is applied (the case's check brought
    // forward) and a reconciliation pass observes the attempt.
    const send = vi.spyOn(AlfredpayClient.prototype, "finishKycSubmission").mockImplementation(async function (
      this: AlfredpayClient,
      ...args
    ) {
      await finish.apply(this, args);
      await t.app.db.kycCase.updateMany({ where: { profileId: user.profileId }, data: { nextCheckAt: new Date() } });
      await t.app.kycReconciler.tick();
    });
    try {
      expect(ok(await post(user.secret, "/v1/domestic/sendKycSubmission", { country: "MX", submissionId }))).toEqual({
        success: true,
      });
      expect(send).toHaveBeenCalledTimes(1);
    } finally {
      send.mockRestore();
    }
    expect(await status(user.secret, "MX")).not.toBe("USER_COMPLETED");
    expect(await decision(user.secret, "MX")).toBe("SUCCESS");
  });

  it("finds a send whose answer was lost in review at the partner, by a check made at once", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "CO" }));
    const { submissionId } = ok(await post(user.secret, "/v1/co/submitKycInformation", KYC_INFO));
    // The partner takes the send; its answer is a 503.
    t.partners.simulator.setFaults({
      partner: "alfredpay",
      failNext: { count: 1, when: "after", status: 503, route: SUBMIT_ROUTE },
    });
    try {
      expectError(await post(user.secret, "/v1/co/sendKycSubmission", { submissionId }), 502, "PROVIDER_UNAVAILABLE");
    } finally {
      t.partners.simulator.clearFaults();
    }
    expect(await status(user.secret, "CO")).toBe("USER_COMPLETED");
    expect(await decision(user.secret, "CO")).toBe("SUCCESS");
  });

  it("gives a send that did not reach the partner back to its caller once a check finds it not sent", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "CO" }));
    const { submissionId } = ok(await post(user.secret, "/v1/co/submitKycInformation", KYC_INFO));
    // A 503 before the partner took it: to us, an answer lost like any other.
    t.partners.simulator.setFaults({
      partner: "alfredpay",
      failNext: { count: 1, when: "before", status: 503, route: SUBMIT_ROUTE },
    });
    try {
      expectError(await post(user.secret, "/v1/co/sendKycSubmission", { submissionId }), 502, "PROVIDER_UNAVAILABLE");
    } finally {
      t.partners.simulator.clearFaults();
    }
    await observed(
      t,
      () => storedCase(user.profileId, "CO"),
      (row) => row.nextCheckAt === null,
      "the check that finds the submission not sent",
    );
    expect(await status(user.secret, "CO")).toBe("USER_COMPLETED");
    ok(await post(user.secret, "/v1/co/sendKycSubmission", { submissionId }));
    expect(await decision(user.secret, "CO")).toBe("SUCCESS");
  });
});

/**
 * What a client written against the reference sends (its SubmitKycInformationRequest and
 * SubmitKybInformationRequest), per country.
 */
const REFERENCE_KYC: Record<"AR" | "CO" | "MX", Record<string, unknown>> = {
  AR: {
    country: "AR",
    firstName: "Ana",
    lastName: "Souza",
    dateOfBirth: "1990-04-12",
    address: "Av. Corrientes 1234",
    city: "Buenos Aires",
    state: "CABA",
    zipCode: "C1043",
    dni: "12345678",
    typeDocumentAr: "DNI",
    cuit: "20123456786",
    email: "ana@example.com",
    phoneNumber: "+5491123456789",
    countryCode: "AR",
    nationalities: ["AR"],
    pep: false,
  },
  CO: {
    country: "CO",
    firstName: "Ana",
    lastName: "Souza",
    dateOfBirth: "1990-04-12",
    address: "Calle 10 # 5-51",
    city: "Bogotá",
    state: "Cundinamarca",
    zipCode: "110311",
    dni: "12345678",
    typeDocument: "NATIONAL_ID",
    typeDocumentCol: "CC",
    phoneNumber: "+573001234567",
  },
  MX: {
    country: "MX",
    firstName: "Ana",
    lastName: "Souza",
    dateOfBirth: "1990-04-12",
    address: "Av. Reforma 222",
    city: "Ciudad de México",
    state: "CDMX",
    zipCode: "06600",
    dni: "12345678",
    email: "ana@example.com",
  },
};
/** The reference's KYC field names that name one of the project's facts otherwise. */
const FACTS: Record<string, string> = {
  dni: "documentNumber",
  typeDocument: "documentType",
  typeDocumentCol: "colombianDocumentType",
  typeDocumentAr: "argentineDocumentType",
  phoneNumber: "phone",
  pep: "politicallyExposed",
};
const REFERENCE_KYB = {
  country: "CO",
  businessName: "Acme SAS",
  taxId: "900123456",
  address: "Calle 10 # 5-51",
  state: "Cundinamarca",
  city: "Bogotá",
  zipCode: "110311",
  website: "https://acme.example.com",
  relatedPersons: [
    {
      firstName: "Ana",
      lastName: "Souza",
      email: "ana@example.com",
      dateOfBirth: "1990-04-12",
      nationalities: ["CO"],
      dni: "12345678",
      pep: false,
    },
  ],
  walletAddresses: "0x1111111111111111111111111111111111111111",
  sourceOfFunds: "Sales",
  transmitsCustomerFunds: true,
  conductsComplianceScreening: true,
  complianceScreeningDescription: "Screening of every customer against sanction lists",
  operatesInSanctionedCountries: false,
  isRegulatedBusiness: false,
  businessActivities: "Software",
  accountPurpose: "Payroll",
  expectedMonthlyVolumeUsd: 25000,
  expectedMonthlyTransactions: 40,
};

describe("the reference's request bodies", () => {
  it("takes a reference client's KYC body unchanged in AR, CO and MX, as the same facts", async () => {
    const user = await newUser();
    const parsed = vi.spyOn(kycInformation, "safeParse");
    try {
      for (const [country, body] of Object.entries(REFERENCE_KYC)) {
        ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country }));
        parsed.mockClear();
        const { submissionId } = ok(await post(user.secret, "/v1/domestic/submitKycInformation", body));
        // The operation read every fact, each under the project's name for it.
        const facts = Object.fromEntries(Object.entries(body).map(([name, value]) => [FACTS[name] ?? name, value]));
        expect(parsed.mock.results.map(({ value }) => value)).toEqual([{ success: true, data: facts }]);
        expect(await status(user.secret, country)).toBe("USER_COMPLETED");
        ok(await post(user.secret, "/v1/domestic/sendKycSubmission", { country, submissionId }));
        expect(await decision(user.secret, country)).toBe("SUCCESS");
        const read = ok(await get(user.secret, `/v1/domestic/getKycStatus?country=${country}`));
        // Optional strings are left out, never null: lastFailure comes with a failure only.
        expect(Object.keys(read).sort()).toEqual(["alfred_pay_id", "country", "status", "updated_at"]);
      }
    } finally {
      parsed.mockRestore();
    }
  });

  it("validates the reference's fields under their own names and still refuses unknown ones", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "AR" }));
    const { dni: _dni, ...withoutDni } = REFERENCE_KYC.AR;
    for (const [body, field] of [
      [withoutDni, "dni"],
      [{ ...REFERENCE_KYC.AR, dni: " " }, "dni"],
      [{ ...REFERENCE_KYC.AR, typeDocumentAr: "PASSPORT" }, "typeDocumentAr"],
      [{ ...REFERENCE_KYC.AR, typeDocumentCol: "TI" }, "typeDocumentCol"],
      [{ ...REFERENCE_KYC.AR, pep: "no" }, "pep"],
      [{ ...REFERENCE_KYC.AR, cuit: "20-12345678-6" }, "cuit"],
      [{ ...REFERENCE_KYC.AR, nationalities: "AR" }, "nationalities"],
      [{ ...REFERENCE_KYC.AR, phoneNumber: 5491123456789 }, "phoneNumber"],
    ] as const) {
      expectError(await post(user.secret, "/v1/domestic/submitKycInformation", body), 400, "VALIDATION_FAILED", field);
    }
    const unknown = await post(user.secret, "/v1/domestic/submitKycInformation", {
      ...REFERENCE_KYC.AR,
      dniNumber: "1",
    });
    expectError(unknown, 400, "VALIDATION_FAILED");
    expect(unknown.body.error.details).toEqual([{ field: "(body)", message: expect.stringContaining("dniNumber") }]);
    expect(await status(user.secret, "AR")).toBe("CONSULTED");
  });

  it("takes a reference client's KYB body, questionnaire and related persons included", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createBusinessCustomer", { country: "CO" }));
    const { submissionId } = ok(await post(user.secret, "/v1/domestic/submitKybInformation", REFERENCE_KYB));
    ok(await post(user.secret, "/v1/domestic/sendKybSubmission", { country: "CO", submissionId }));
    expect(await decision(user.secret, "CO", "BUSINESS")).toBe("SUCCESS");
  });

  it("documents the reference's names for the KYC body", async () => {
    const document = ok(await get({}, "/v1/openapi.json"));
    const body =
      document.paths["/v1/domestic/submitKycInformation"].post.requestBody.content["application/json"].schema;
    // Every field of the reference's SubmitKycInformationRequest, and none of ours it names otherwise.
    expect(Object.keys(body.properties).sort()).toEqual(
      [
        "address",
        "city",
        "country",
        "countryCode",
        "cuit",
        "dateOfBirth",
        "dni",
        "email",
        "firstName",
        "lastName",
        "nationalities",
        "pep",
        "phoneNumber",
        "state",
        "typeDocument",
        "typeDocumentAr",
        "typeDocumentCol",
        "zipCode",
      ].sort(),
    );
    expect(body.required).toEqual(["firstName", "lastName", "dateOfBirth", "dni"]);
    expect(body.additionalProperties).toBe(false);
  });
});

describe("hosted flows", () => {
  it("gives the partner's link, records it opened and finished, and is approved; later reports change nothing", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "AR" }));
    expectError(await post(user.secret, "/v1/domestic/kycRedirectOpened", { country: "AR" }), 400, "VALIDATION_FAILED");
    // The link names its customer type by its path: a `type` in the query is refused, not ignored.
    for (const query of ["?type=INDIVIDUALX", "?type=BUSINESS", "?country=AR&type=INDIVIDUAL"]) {
      expectError(await get(user.secret, `/v1/ar/getKycRedirectLink${query}`), 400, "VALIDATION_FAILED");
    }
    expectError(await get(user.secret, "/v1/ar/getKycStatus?type=INDIVIDUALX"), 400, "VALIDATION_FAILED");
    expect(await status(user.secret, "AR")).toBe("CONSULTED");
    const link = ok(await get(user.secret, "/v1/ar/getKycRedirectLink"));
    // The partner's page of the attempt it opened.
    expect(link.verification_url).toBe(await hostedPage("alfredpay/kyc", user.profileId, "AR"));
    ok(await post(user.secret, "/v1/ar/kycRedirectOpened", {}));
    expect(await status(user.secret, "AR")).toBe("LINK_OPENED");
    // The link again while it is open: the same attempt.
    expect(ok(await get(user.secret, "/v1/ar/getKycRedirectLink"))).toEqual(link);
    expect(ok(await post(user.secret, "/v1/ar/kycRedirectFinished", {}))).toEqual({ success: true });
    expect(await status(user.secret, "AR")).toBe("VERIFYING");
    expect(await decision(user.secret, "AR")).toBe("SUCCESS");
    // The caller's reports move a case forward only: after the decision they are recorded and change nothing.
    ok(await post(user.secret, "/v1/ar/kycRedirectOpened", {}));
    ok(await post(user.secret, "/v1/ar/kycRedirectFinished", {}));
    expect(await status(user.secret, "AR")).toBe("SUCCESS");
  });

  it("rejects a contact email with the rejection marker; a retry gives a new link", async () => {
    const user = await newUser(t, `someone+kyc-rejected-${randomUUID().slice(0, 8)}@example.com`);
    ok(await post(user.secret, "/v1/domestic/createBusinessCustomer", { country: "US" }));
    const link = ok(await get(user.secret, "/v1/domestic/getKybRedirectLink?country=US"));
    ok(await post(user.secret, "/v1/domestic/kycRedirectFinished", { country: "US", type: "BUSINESS" }));
    expect(await decision(user.secret, "US", "BUSINESS")).toBe("FAILED");
    expectError(await get(user.secret, "/v1/domestic/getKycStatus?country=US"), 404, "NOT_FOUND");
    const retried = ok(await post(user.secret, "/v1/domestic/retryKyc", { country: "US", type: "BUSINESS" }));
    expect(retried.submissionId).not.toBe(link.submissionId);
    // The partner's page of the new attempt.
    expect(retried.verification_url).not.toBe(link.verification_url);
    expect(retried.verification_url).toBe(await hostedPage("alfredpay/kyb", user.profileId, "US", "business"));
    expect(await status(user.secret, "US", "BUSINESS")).toBe("CONSULTED");
  });

  it("runs KYB through the API in CO and MX", async () => {
    const user = await newUser();
    ok(await post(user.secret, "/v1/mx/createBusinessCustomer", {}));
    const form = { businessName: "Acme SA de CV", taxId: "ACM010101ABC" };
    const { submissionId } = ok(await post(user.secret, "/v1/mx/submitKybInformation", form));
    // The partner keeps one open KYB form per business: a second one before sending is refused, and the first stands.
    const before = await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } });
    expectError(await post(user.secret, "/v1/mx/submitKybInformation", form), 400, "VALIDATION_FAILED", "country");
    expect(await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } })).toEqual(before);
    ok(await post(user.secret, "/v1/mx/sendKybSubmission", { submissionId }));
    expect(await status(user.secret, "MX", "BUSINESS")).toBe("VERIFYING");
    expect(await decision(user.secret, "MX", "BUSINESS")).toBe("SUCCESS");
    expect(await rampInfo(user.secret, "MX")).toBe("approved");
  });
});

describe("Brazil", () => {
  it("creates a subaccount, submits level 1, and reads status, user and remaining limit (also under /v1/brla)", async () => {
    const user = await newUser();
    const cpf = randomCpf();
    expectError(
      await post(user.secret, "/v1/brl/createSubaccount", {
        accountType: "INDIVIDUAL",
        name: "Ana Souza",
        taxId: "123.456.789-00",
      }),
      400,
      "VALIDATION_FAILED",
      "taxId",
    );
    expectError(
      await post(user.secret, "/v1/brl/createSubaccount", { accountType: "COMPANY", name: "Ana Souza", taxId: cpf }),
      400,
      "VALIDATION_FAILED",
      "taxId",
    );
    const { subAccountId } = ok(
      await post(user.secret, "/v1/brl/createSubaccount", { accountType: "INDIVIDUAL", name: "Ana Souza", taxId: cpf }),
    );
    // The same request again: the same subaccount. Another tax id: refused.
    expect(
      ok(
        await post(user.secret, "/v1/brla/createSubaccount", {
          accountType: "INDIVIDUAL",
          name: "Ana Souza",
          taxId: cpf,
        }),
      ).subAccountId,
    ).toBe(subAccountId);
    expectError(
      await post(user.secret, "/v1/brl/createSubaccount", {
        accountType: "INDIVIDUAL",
        name: "Ana Souza",
        taxId: randomCpf(),
      }),
      400,
      "VALIDATION_FAILED",
      "taxId",
    );
    expectError(await get(user.secret, `/v1/brl/getKycStatus?taxId=${cpf}`), 404, "NOT_FOUND");
    expect(ok(await get(user.secret, "/v1/brl/getUser"))).toMatchObject({
      subAccountId,
      kycLevel: 0,
      identityStatus: "NOT-IDENTIFIED",
    });

    const uploads = await uploadKycDocuments(t.send, user.secret, cpf);
    expectError(
      await post(user.secret, "/v1/brl/newKyc", {
        ...LEVEL_ONE_KYC,
        ...uploads,
        subAccountId: randomUUID(),
        taxIdNumber: cpf,
      }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await post(user.secret, "/v1/brl/newKyc", {
        ...LEVEL_ONE_KYC,
        ...uploads,
        subAccountId,
        taxIdNumber: randomCpf(),
      }),
      400,
      "VALIDATION_FAILED",
      "taxIdNumber",
    );
    ok(await post(user.secret, "/v1/brl/newKyc", { ...LEVEL_ONE_KYC, ...uploads, subAccountId, taxIdNumber: cpf }));
    expect(ok(await get(user.secret, `/v1/brl/getKycStatus?taxId=${cpf}`))).toEqual({
      type: "KYC",
      status: "PROCESSING",
      level: "0",
    });
    expect(await brazilDecision(user.secret, cpf)).toEqual({
      type: "KYC",
      status: "COMPLETED",
      result: "APPROVED",
      level: "1",
    });
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    expect(ok(await get(user.secret, `/v1/brla/getUser?taxId=${formatted}`))).toMatchObject({
      subAccountId,
      kycLevel: 1,
      identityStatus: "CONFIRMED",
    });
    expect(ok(await get(user.secret, "/v1/brl/getUser")).evmAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(typeof ok(await get(user.secret, "/v1/brl/getUserRemainingLimit?direction=BUY")).remainingLimit).toBe(
      "number",
    );
    expectError(await get(user.secret, "/v1/brl/getUserRemainingLimit"), 400, "VALIDATION_FAILED", "direction");
    expect(await rampInfo(user.secret, "BR")).toBe("approved");

    // Another profile cannot read it through the tax id.
    const other = await newUser();
    expectError(await get(other.secret, `/v1/brl/getKycStatus?taxId=${cpf}`), 400, "VALIDATION_FAILED", "taxId");
    expectError(await get(other.secret, "/v1/brl/getUser"), 404, "NOT_FOUND");
  });

  it("checks a Pix key's format (CPF, CNPJ, email, +55 phone, random key) without echoing it, under /v1/brl, /v1/brla and in GraphQL", async () => {
    const user = await newUser();
    const cpf = randomCpf();
    const valid = [cpf, `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`, randomCnpj()];
    valid.push("ana.souza@example.com.br", "+5511987654321", "+551133334444", randomUUID());
    const invalid = ["12345678900", "11111111111", "5511987654321", "+55011987654321", "+1415555010", "ana@", "pix"];
    invalid.push("ana@example", "not-a-uuid-0000-0000-0000-000000000000");
    for (const [prefix, keys, expected] of [
      ["/v1/brl", valid, true],
      ["/v1/brla", valid, true],
      ["/v1/brl", invalid, false],
    ] as const)
      for (const key of keys) {
        const body = ok(await get(user.secret, `${prefix}/validatePixKey?pixKey=${encodeURIComponent(key)}`));
        expect(body, key).toEqual({ valid: expected });
      }
    expectError(await get(user.secret, "/v1/brl/validatePixKey"), 400, "VALIDATION_FAILED", "pixKey");
    expectError(await get(user.secret, "/v1/brl/validatePixKey?pixKey=%20"), 400, "VALIDATION_FAILED", "pixKey");
    expectError(
      await get(user.secret, `/v1/brl/validatePixKey?pixKey=${"9".repeat(78)}`),
      400,
      "VALIDATION_FAILED",
      "pixKey",
    );
    const query = "query ($key: String!) { pixKeyValid(pixKey: $key) }";
    expect((await t.graphql(query, { key: "+5511987654321" }, user.secret)).body.data).toEqual({ pixKeyValid: true });
    expect((await t.graphql(query, { key: "12345678900" }, user.secret)).body.data).toEqual({ pixKeyValid: false });
  });

  it("reopens a rejected subaccount when it is created again, and runs a company through hosted KYB", async () => {
    const user = await newUser();
    const cpf = randomCpf();
    const { subAccountId } = ok(
      await post(user.secret, "/v1/brl/createSubaccount", {
        accountType: "INDIVIDUAL",
        name: "Rejected Person",
        taxId: cpf,
      }),
    );
    const uploads = await uploadKycDocuments(t.send, user.secret, cpf);
    ok(
      await post(user.secret, "/v1/brl/newKyc", {
        ...LEVEL_ONE_KYC,
        ...uploads,
        fullName: "Rejected Person",
        subAccountId,
        taxIdNumber: cpf,
      }),
    );
    expect(await brazilDecision(user.secret, cpf)).toEqual({
      type: "KYC",
      status: "COMPLETED",
      result: "REJECTED",
      level: "0",
    });
    expectError(
      await post(user.secret, "/v1/brl/newKyc", { ...LEVEL_ONE_KYC, ...uploads, subAccountId, taxIdNumber: cpf }),
      400,
      "VALIDATION_FAILED",
    );
    expect(
      ok(
        await post(user.secret, "/v1/brl/createSubaccount", {
          accountType: "INDIVIDUAL",
          name: "Ana Souza",
          taxId: cpf,
        }),
      ).subAccountId,
    ).toBe(subAccountId);
    ok(await post(user.secret, "/v1/brl/newKyc", { ...LEVEL_ONE_KYC, ...uploads, subAccountId, taxIdNumber: cpf }));
    expect((await brazilDecision(user.secret, cpf)).result).toBe("APPROVED");

    const cnpj = randomCnpj();
    const company = ok(
      await post(user.secret, "/v1/brl/createSubaccount", { accountType: "COMPANY", name: "Acme Ltda", taxId: cnpj }),
    );
    expectError(
      await post(user.secret, "/v1/brl/newKyc", {
        ...LEVEL_ONE_KYC,
        ...uploads,
        subAccountId: company.subAccountId,
        taxIdNumber: cnpj,
      }),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );
    expectError(
      await post(user.secret, `/v1/brl/kyb/new-level-1/web-sdk?subAccountId=${subAccountId}`),
      400,
      "VALIDATION_FAILED",
      "subAccountId",
    );
    const attempt = ok(await post(user.secret, `/v1/brl/kyb/new-level-1/web-sdk?subAccountId=${company.subAccountId}`));
    // The partner's pages of the attempt it opened.
    const pages = await hostedPage("avenia/kyb", user.profileId, "BR", "business");
    expect(attempt).toMatchObject({
      authorizedRepresentativeUrl: `${pages}/representative`,
      basicCompanyDataUrl: `${pages}/company`,
    });
    expect(ok(await get(user.secret, `/v1/brl/kyb/attempt-status?attemptId=${attempt.attemptId}`))).toEqual({
      status: "PROCESSING",
    });
    expect(await kybAttemptDecision(user.secret, attempt.attemptId)).toEqual({
      status: "COMPLETED",
      result: "APPROVED",
    });
    expectError(await get(user.secret, `/v1/brl/kyb/attempt-status?attemptId=${randomUUID()}`), 404, "NOT_FOUND");
  });
});

describe("managed children", () => {
  async function managerWithChildren(allowedCorridors: Corridor[]) {
    const manager = await newUser();
    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors, isActive: true },
      }),
      201,
    );
    const child = async (customerType: "individual" | "business") => {
      const contactEmail = `child-${randomUUID()}@example.com`;
      const created = ok(
        await post(manager.secret, "/v1/managed-profiles", {
          externalSubjectId: `subject-${randomUUID()}`,
          contactEmail,
          customerType,
        }),
        201,
      );
      const profileId: string = created.managedProfile.profileId;
      const key = ok(
        await post(manager.secret, `/v1/managed-profiles/${profileId}/api-credentials`, { name: "child's own" }),
        201,
      );
      rememberSecret(key.secretKey);
      return {
        profileId,
        contactEmail,
        selecting: { ...manager.secret, "x-managed-profile-id": profileId },
        own: { "x-api-key": key.secretKey as string },
      };
    };
    return { manager, individual: await child("individual"), business: await child("business") };
  }

  it("creates the child's provider customer with its contact email, through the selector or its own key", async () => {
    const { manager, individual } = await managerWithChildren(["MX", "BR"]);
    ok(await post(individual.selecting, "/v1/domestic/createIndividualCustomer", { country: "MX" }));
    const row = await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: individual.profileId } });
    expect(row.contactEmail).toBe(individual.contactEmail);
    const { submissionId } = ok(
      await post(individual.own, "/v1/domestic/submitKycInformation", { country: "MX", ...KYC_INFO }),
    );
    ok(await post(individual.selecting, "/v1/domestic/sendKycSubmission", { country: "MX", submissionId }));
    expect(await decision(individual.own, "MX")).toBe("SUCCESS");
    // The manager's own KYC is its own.
    expectError(await get(manager.secret, "/v1/domestic/getKycStatus?country=MX"), 404, "NOT_FOUND");
    // The contact email never becomes a login: signing in with it is another profile, without the child's KYC.
    const stranger = await newUser(t, individual.contactEmail);
    expect(stranger.profileId).not.toBe(individual.profileId);
    expectError(await get(stranger.secret, "/v1/domestic/getKycStatus?country=MX"), 404, "NOT_FOUND");
  });

  it("checks the child's customer type, the corridor capability and the manager's current policy on changes, not on reads", async () => {
    const { manager, individual, business } = await managerWithChildren(["MX", "AR", "CO"]);
    expectError(
      await post(business.selecting, "/v1/domestic/createIndividualCustomer", { country: "MX" }),
      400,
      "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH",
    );
    expectError(
      await post(individual.own, "/v1/domestic/createBusinessCustomer", { country: "MX" }),
      400,
      "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH",
    );
    expectError(
      await post(business.selecting, "/v1/ar/createBusinessCustomer", {}),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expectError(
      await post(individual.selecting, "/v1/domestic/createIndividualCustomer", { country: "US" }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    ok(await post(business.selecting, "/v1/co/createBusinessCustomer", {}));
    ok(await post(individual.selecting, "/v1/co/createIndividualCustomer", {}));

    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors: ["MX"], isActive: true },
      }),
    );
    expectError(
      await post(individual.own, "/v1/co/submitKycInformation", KYC_INFO),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(await status(individual.own, "CO")).toBe("CONSULTED");
    expect(await status(business.selecting, "CO", "BUSINESS")).toBe("CONSULTED");
    expectError(
      await post(
        { ...individual.own, "x-managed-profile-id": individual.profileId },
        "/v1/co/submitKycInformation",
        KYC_INFO,
      ),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(
      await t.app.db.kycCase.count({ where: { profileId: { in: [individual.profileId, business.profileId] } } }),
    ).toBe(2);
  });

  it("refuses a child's changes in a corridor its manager no longer allows before validating their bodies", async () => {
    const { manager, individual, business } = await managerWithChildren(["MX", "BR"]);
    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors: ["CO"], isActive: true },
      }),
    );
    const invalid = { firstName: 7, unknown: true };
    for (const [who, path, body] of [
      [individual.selecting, "/v1/mx/createIndividualCustomer", invalid],
      [individual.selecting, "/v1/mx/submitKycInformation", invalid],
      [individual.own, "/v1/mx/submitKycInformation", { country: "MX", ...invalid }],
      [individual.selecting, "/v1/domestic/sendKycSubmission", { country: "MX", submissionId: "x" }],
      [business.selecting, "/v1/mx/submitKybInformation", invalid],
      [individual.selecting, "/v1/brl/createSubaccount", { accountType: "INDIVIDUAL", taxId: "1" }],
      [individual.selecting, "/v1/brla/createSubaccount", invalid],
      [individual.selecting, "/v1/brl/newKyc", invalid],
    ] as const) {
      expectError(await post(who, path, body), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    }
    // With the corridor allowed again, a customer type that is not the child's is refused before the body.
    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors: ["MX", "BR"], isActive: true },
      }),
    );
    for (const [who, path, body] of [
      [business.selecting, "/v1/mx/submitKycInformation", invalid],
      [individual.selecting, "/v1/mx/submitKybInformation", invalid],
      [business.selecting, "/v1/brl/createSubaccount", { accountType: "INDIVIDUAL", taxId: "1" }],
      [business.selecting, "/v1/brl/newKyc", invalid],
    ] as const) {
      expectError(await post(who, path, body), 400, "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH");
    }
    // And an allowed change is validated as before.
    expectError(await post(individual.selecting, "/v1/mx/submitKycInformation", invalid), 400, "VALIDATION_FAILED");
    expect(
      await t.app.db.kycCase.count({ where: { profileId: { in: [individual.profileId, business.profileId] } } }),
    ).toBe(0);
  });
});

describe("ramps read the KYC state", () => {
  it("refuses a ramp before approval and registers it after, in the quote's corridor only", async () => {
    const user = await newUser();
    const quote = async () =>
      ok(
        await post(user.secret, "/v1/quotes", {
          rampType: "BUY",
          from: "spei",
          to: "polygon",
          inputAmount: "1000",
          inputCurrency: "MXN",
          outputCurrency: "USDC",
        }),
        201,
      ).id;
    const register = async (quoteId: string) =>
      post(user.secret, "/v1/ramp/register", { quoteId, destinationAddress: `0x${"4".repeat(40)}` });
    expectError(await register(await quote()), 403, "KYC_NOT_APPROVED");
    await t.completeKyc(user.secret, ["CO"]);
    expectError(await register(await quote()), 403, "KYC_NOT_APPROVED");
    await t.completeKyc(user.secret, ["MX"]);
    ok(await register(await quote()), 201);
  });
});

describe("GraphQL", () => {
  it("lists the subject's customers with their KYC status, for a child through the selector too", async () => {
    const user = await newUser();
    await t.completeKyc(user.secret, ["BR"]);
    ok(await post(user.secret, "/v1/domestic/createIndividualCustomer", { country: "MX" }));
    const QUERY = "{ customers { customerId corridor customerType kycStatus createdAt } }";
    const { body } = await t.graphql(QUERY, {}, user.session);
    expect(body.errors).toBeUndefined();
    const cases = await t.app.db.kycCase.findMany({
      where: { profileId: user.profileId },
      orderBy: { createdAt: "asc" },
    });
    expect(
      body.data.customers.map((customer: any) => [customer.customerId, customer.corridor, customer.customerType]),
    ).toEqual(cases.map((row) => [row.providerCustomerId, row.corridor, row.customerType.toUpperCase()]));
    expect(body.data.customers.map((customer: any) => customer.kycStatus)).toEqual(["APPROVED", "NOT_STARTED"]);

    const { manager, selecting } = await individualChildOfMxManager();
    ok(await post(selecting, "/v1/mx/createIndividualCustomer", {}));
    const forChild = (await t.graphql(QUERY, {}, selecting)).body;
    expect(forChild.data.customers.map((customer: any) => [customer.corridor, customer.kycStatus])).toEqual([
      ["MX", "NOT_STARTED"],
    ]);
    expect((await t.graphql(QUERY, {}, manager.secret)).body.data.customers).toEqual([]);
  });
});

describe("domestic customers and KYC/KYB over GraphQL", () => {
  const CUSTOMER = "{ customerId country customerType status createdAt updatedAt }";
  /** The field's data, or the test fails with the errors GraphQL answered. */
  async function data(headers: Headers, document: string, variables: Record<string, unknown> = {}) {
    const { body } = await t.graphql(document, variables, headers);
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return Object.values(body.data)[0] as any;
  }
  /** The first error's code and status, and what the field answered. */
  async function refusal(headers: Headers, document: string, variables: Record<string, unknown> = {}) {
    const { body } = await t.graphql(document, variables, headers);
    const [error] = body.errors ?? [];
    return { code: error?.extensions?.code, status: error?.extensions?.status, details: error?.extensions?.details };
  }
  const kycStatus = async (headers: Headers, country: string, customerType = "INDIVIDUAL") =>
    (
      await data(
        headers,
        "query($country: DomesticCountry!, $type: CustomerType) { domesticKycStatus(country: $country, customerType: $type) { status } }",
        { country, type: customerType },
      )
    ).status;
  const SUBMIT_KYC =
    "mutation($country: DomesticCountry!, $input: DomesticKycInformationInput!) { submitDomesticKycInformation(country: $country, input: $input) { submission { submissionId } } }";
  const SEND_KYC =
    "mutation($country: DomesticCountry!, $id: ID!) { sendDomesticKycSubmission(country: $country, submissionId: $id) { sentSubmissionId } }";

  it("takes an individual from customer to approved through the API, and REST reads the same case", async () => {
    const user = await newUser();
    const { customer } = await data(
      user.session,
      `mutation { createDomesticIndividualCustomer(country: MX) { customer ${CUSTOMER} } }`,
    );
    expect(customer).toMatchObject({ country: "MX", customerType: "INDIVIDUAL", status: "CONSULTED" });
    const rest = ok(await get(user.secret, "/v1/domestic/getKycStatus?country=MX"));
    expect(rest).toMatchObject({ alfred_pay_id: customer.customerId, status: "CONSULTED" });

    const input = { ...KYC_INFO, phone: "+525512345678", nationalities: ["MX"], politicallyExposed: false };
    const { submissionId } = (await data(user.secret, SUBMIT_KYC, { country: "MX", input })).submission;
    expect(await kycStatus(user.secret, "MX")).toBe("USER_COMPLETED");
    expect(await status(user.secret, "MX")).toBe("USER_COMPLETED");
    expect(await data(user.secret, SEND_KYC, { country: "MX", id: submissionId })).toEqual({
      sentSubmissionId: submissionId,
    });
    expect(await kycStatus(user.session, "MX")).toBe("VERIFYING");
    expect(await decision(user.secret, "MX")).toBe("SUCCESS");
    expect(await kycStatus(user.session, "MX")).toBe("SUCCESS");
    expect(await rampInfo(user.secret, "MX")).toBe("approved");

    const read = await data(user.secret, `{ domesticCustomer(country: MX) ${CUSTOMER} }`);
    const creation = ok(await get(user.secret, "/v1/domestic/alfredpayStatus?country=MX"));
    expect(read).toMatchObject({
      customerId: customer.customerId,
      status: "SUCCESS",
      createdAt: creation.creationTime,
    });
  });

  it("runs a business's hosted KYB and its KYB through the API", async () => {
    const user = await newUser();
    await data(user.secret, "mutation { createDomesticBusinessCustomer(country: US) { customer { status } } }");
    const LINK = "mutation { requestDomesticKybLink(country: US) { hostedLink { submissionId url } } }";
    const link = (await data(user.secret, LINK)).hostedLink;
    expect(link.url).toBe(await hostedPage("alfredpay/kyb", user.profileId, "US", "business"));
    expect(
      await data(
        user.secret,
        "mutation { reportDomesticHostedFlowOpened(country: US, customerType: BUSINESS) { recorded } }",
      ),
    ).toEqual({ recorded: true });
    expect(await kycStatus(user.secret, "US", "BUSINESS")).toBe("LINK_OPENED");
    // Asked again once the flow was opened: the same attempt.
    expect(await data(user.secret, LINK)).toEqual({ hostedLink: link });
    await data(
      user.secret,
      "mutation { reportDomesticHostedFlowFinished(country: US, customerType: BUSINESS) { recorded } }",
    );
    expect(await kycStatus(user.secret, "US", "BUSINESS")).toBe("VERIFYING");
    expect(await decision(user.secret, "US", "BUSINESS")).toBe("SUCCESS");
    // The individual customer of the country is another one, which does not exist.
    expect(await refusal(user.secret, "{ domesticKycStatus(country: US) { status } }")).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });

    await data(user.secret, "mutation { createDomesticBusinessCustomer(country: CO) { customer { status } } }");
    const { submissionId } = (
      await data(
        user.secret,
        "mutation($input: DomesticKybInformationInput!) { submitDomesticKybInformation(country: CO, input: $input) { submission { submissionId } } }",
        { input: { businessName: "Acme SAS", taxId: "900123456", website: "https://acme.example.com" } },
      )
    ).submission;
    await data(
      user.secret,
      "mutation($id: ID!) { sendDomesticKybSubmission(country: CO, submissionId: $id) { sentSubmissionId } }",
      {
        id: submissionId,
      },
    );
    expect(await decision(user.secret, "CO", "BUSINESS")).toBe("SUCCESS");
  });

  it("retries a rejected case: an API one for new information, a hosted one with a new link", async () => {
    const user = await newUser(t, `someone+kyc-rejected-${randomUUID().slice(0, 8)}@example.com`);
    await data(user.secret, "mutation { createDomesticIndividualCustomer(country: CO) { customer { status } } }");
    const rejected = { ...KYC_INFO, lastName: "Rejectable" };
    const { submissionId } = (await data(user.secret, SUBMIT_KYC, { country: "CO", input: rejected })).submission;
    await data(user.secret, SEND_KYC, { country: "CO", id: submissionId });
    expect(await decision(user.secret, "CO")).toBe("FAILED");
    expect(await kycStatus(user.secret, "CO")).toBe("FAILED");
    const RETRY =
      "mutation($country: DomesticCountry!, $type: CustomerType) { retryDomesticKyc(country: $country, customerType: $type) { hostedLink { submissionId url } } }";
    expect(await data(user.secret, RETRY, { country: "CO" })).toEqual({ hostedLink: null });
    expect(await status(user.secret, "CO")).toBe("CONSULTED");

    // The contact email carries the rejection marker: the partner rejects the hosted KYB.
    await data(user.secret, "mutation { createDomesticBusinessCustomer(country: MX) { customer { status } } }");
    const { hostedLink: link } = await data(
      user.secret,
      "mutation { requestDomesticKybLink(country: MX) { hostedLink { submissionId } } }",
    );
    await data(
      user.secret,
      "mutation { reportDomesticHostedFlowFinished(country: MX, customerType: BUSINESS) { recorded } }",
    );
    expect(await decision(user.secret, "MX", "BUSINESS")).toBe("FAILED");
    expect(await kycStatus(user.secret, "MX", "BUSINESS")).toBe("FAILED");
    const { hostedLink } = await data(user.secret, RETRY, { country: "MX", type: "BUSINESS" });
    expect(hostedLink.submissionId).not.toBe(link.submissionId);
    expect(hostedLink.url).toBe(await hostedPage("alfredpay/kyb", user.profileId, "MX", "business"));
    expect(await status(user.secret, "MX", "BUSINESS")).toBe("CONSULTED");
  });

  it("refuses as REST does, with the error table's codes, and changes nothing", async () => {
    const user = await newUser();
    expect(await refusal(user.secret, SUBMIT_KYC, { country: "AR", input: KYC_INFO })).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });
    // A lookup that finds nothing is null, with its error: the rest of the page stays.
    const { body } = await t.graphql(
      "{ domesticCustomer(country: AR) { status } customers { corridor } }",
      {},
      user.secret,
    );
    expect(body.data).toEqual({ domesticCustomer: null, customers: [] });
    expect(body.errors.map((error: any) => error.extensions.code)).toEqual(["NOT_FOUND"]);

    await data(user.secret, "mutation { createDomesticIndividualCustomer(country: AR) { customer { status } } }");
    expect(
      await refusal(user.secret, "mutation { createDomesticIndividualCustomer(country: AR) { customer { status } } }"),
    ).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: [{ field: "country" }] });
    expect(
      await refusal(user.secret, SUBMIT_KYC, { country: "AR", input: { ...KYC_INFO, dateOfBirth: "12/04/1990" } }),
    ).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: [{ field: "dateOfBirth" }] });
    expect(await refusal(user.secret, SEND_KYC, { country: "AR", id: randomUUID() })).toMatchObject({
      code: "NOT_FOUND",
    });
    // KYB information is taken in CO and MX only; a null customer type is refused, as in a REST body.
    expect(
      await refusal(
        user.secret,
        'mutation { submitDomesticKybInformation(country: AR, input: { businessName: "Acme", taxId: "30-1" }) { submission { submissionId } } }',
      ),
    ).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    expect(
      await refusal(
        user.secret,
        "mutation($type: CustomerType) { reportDomesticHostedFlowOpened(country: AR, customerType: $type) { recorded } }",
        { type: null },
      ),
    ).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    // Without a hosted link there is nothing to report opened.
    expect(
      await refusal(user.secret, "mutation { reportDomesticHostedFlowOpened(country: AR) { recorded } }"),
    ).toMatchObject({
      code: "VALIDATION_FAILED",
      details: [{ field: "country" }],
    });
    expect(await status(user.secret, "AR")).toBe("CONSULTED");
    expect(await t.app.db.kycCase.count({ where: { profileId: user.profileId } })).toBe(1);
  });

  it("acts for a managed child through the selector, within the manager's policy and the child's customer type", async () => {
    const { manager, selecting } = await individualChildOfMxManager();
    expect(
      await refusal(selecting, "mutation { createDomesticIndividualCustomer(country: CO) { customer { status } } }"),
    ).toMatchObject({ code: "MANAGED_PROFILE_ACCESS_DENIED", status: 403 });
    expect(
      await refusal(selecting, "mutation { createDomesticBusinessCustomer(country: MX) { customer { status } } }"),
    ).toMatchObject({ code: "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH", status: 400 });
    await data(selecting, "mutation { createDomesticIndividualCustomer(country: MX) { customer { status } } }");
    const { submissionId } = (await data(selecting, SUBMIT_KYC, { country: "MX", input: KYC_INFO })).submission;
    await data(selecting, SEND_KYC, { country: "MX", id: submissionId });
    expect(await decision(selecting, "MX")).toBe("SUCCESS");
    // The manager's own case is its own.
    expect(await refusal(manager.secret, "{ domesticKycStatus(country: MX) { status } }")).toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("GraphQL: Brazil", () => {
  const CREATE =
    "mutation ($input: CreateBrazilSubaccountInput!) { createBrazilSubaccount(input: $input) { subAccountId } }";
  const SUBMIT = "mutation ($input: SubmitBrazilKycInput!) { submitBrazilKyc(input: $input) { submissionId } }";
  const STATUS = "query ($taxId: String!) { brazilKycStatus(taxId: $taxId) { customerType status result level } }";
  const USER =
    "query ($taxId: String) { brazilUser(taxId: $taxId) { subAccountId evmAddress kycLevel identityStatus } }";
  const REMAINING = "query ($direction: RampDirection!) { brazilRemainingLimit(direction: $direction) }";
  const START_KYB = "mutation ($id: ID!) { startBrazilKyb(subAccountId: $id) { attemptId basicCompanyDataUrl } }";
  const ATTEMPT = "query ($id: ID!) { brazilKybAttempt(attemptId: $id) { status result retryable } }";
  const codeOf = (body: any) => body.errors?.[0]?.extensions?.code;

  it("takes a subaccount through level 1 KYC to approved and a company through hosted KYB, to the state REST reads", async () => {
    const user = await newUser();
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (await t.graphql(query, variables, user.session)).body;
    const cpf = randomCpf();

    const created = await gql(CREATE, { input: { customerType: "INDIVIDUAL", name: "Ana Souza", taxId: cpf } });
    expect(created.errors).toBeUndefined();
    const { subAccountId } = created.data.createBrazilSubaccount;
    // The same subaccount REST created would be: REST reads it, and creating it again returns it.
    expect(ok(await get(user.secret, "/v1/brl/getUser")).subAccountId).toBe(subAccountId);
    expect(
      ok(
        await post(user.secret, "/v1/brl/createSubaccount", {
          accountType: "INDIVIDUAL",
          name: "Ana Souza",
          taxId: cpf,
        }),
      ).subAccountId,
    ).toBe(subAccountId);
    expect((await gql(USER)).data.brazilUser).toMatchObject({
      subAccountId,
      kycLevel: 0,
      identityStatus: "NOT_IDENTIFIED",
    });
    // Nothing submitted yet: the lookup is null beside its NOT_FOUND.
    const before = await gql(STATUS, { taxId: cpf });
    expect(before.data).toEqual({ brazilKycStatus: null });
    expect(before.errors[0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });

    // Another CPF than the subaccount's is refused with the field named, as over REST.
    const uploads = await uploadKycDocuments(t.send, user.session, cpf);
    const mismatch = await gql(SUBMIT, {
      input: { ...LEVEL_ONE_KYC, ...uploads, subAccountId, taxIdNumber: randomCpf() },
    });
    expect(mismatch.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    expect(mismatch.errors[0].extensions.details.map((detail: { field: string }) => detail.field)).toEqual([
      "taxIdNumber",
    ]);
    const submitted = await gql(SUBMIT, { input: { ...LEVEL_ONE_KYC, ...uploads, subAccountId, taxIdNumber: cpf } });
    expect(submitted.errors).toBeUndefined();
    const row = await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId, corridor: "BR" } });
    expect(submitted.data.submitBrazilKyc.submissionId).toBe(row.submissionId);

    expect((await gql(STATUS, { taxId: cpf })).data.brazilKycStatus).toEqual({
      customerType: "INDIVIDUAL",
      status: "PROCESSING",
      result: null,
      level: 0,
    });
    await brazilDecision(user.secret, cpf);
    expect((await gql(STATUS, { taxId: cpf })).data.brazilKycStatus).toEqual({
      customerType: "INDIVIDUAL",
      status: "COMPLETED",
      result: "APPROVED",
      level: 1,
    });
    expect(ok(await get(user.secret, `/v1/brl/getKycStatus?taxId=${cpf}`))).toEqual({
      type: "KYC",
      status: "COMPLETED",
      result: "APPROVED",
      level: "1",
    });
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    expect((await gql(USER, { taxId: formatted })).data.brazilUser).toEqual(
      ok(await get(user.secret, "/v1/brl/getUser")),
    );
    const remaining = (await gql(REMAINING, { direction: "BUY" })).data.brazilRemainingLimit;
    expect(remaining).toMatch(/^\d+\.\d{2}$/);
    expect(Number(remaining)).toBe(
      ok(await get(user.secret, "/v1/brl/getUserRemainingLimit?direction=BUY")).remainingLimit,
    );
    expect(await rampInfo(user.secret, "BR")).toBe("approved");
    // Another profile's tax id names no subaccount of the caller's.
    const other = await newUser();
    expect(codeOf((await t.graphql(STATUS, { taxId: cpf }, other.session)).body)).toBe("VALIDATION_FAILED");

    // A company: hosted KYB, approved once the attempt is decided.
    const company = await gql(CREATE, { input: { customerType: "BUSINESS", name: "Acme Ltda", taxId: randomCnpj() } });
    const companyId = company.data.createBrazilSubaccount.subAccountId;
    expect(codeOf(await gql(START_KYB, { id: subAccountId }))).toBe("VALIDATION_FAILED");
    const started = (await gql(START_KYB, { id: companyId })).data.startBrazilKyb;
    expect(started.basicCompanyDataUrl).toBe(
      `${await hostedPage("avenia/kyb", user.profileId, "BR", "business")}/company`,
    );
    expect((await gql(ATTEMPT, { id: started.attemptId })).data.brazilKybAttempt).toEqual({
      status: "PROCESSING",
      result: null,
      retryable: false,
    });
    await kybAttemptDecision(user.secret, started.attemptId);
    expect((await gql(ATTEMPT, { id: started.attemptId })).data.brazilKybAttempt).toEqual({
      status: "COMPLETED",
      result: "APPROVED",
      retryable: false,
    });
    expect(ok(await get(user.secret, `/v1/brl/kyb/attempt-status?attemptId=${started.attemptId}`))).toEqual({
      status: "COMPLETED",
      result: "APPROVED",
    });
    const unknown = await gql(ATTEMPT, { id: randomUUID() });
    expect([unknown.data, codeOf(unknown)]).toEqual([{ brazilKybAttempt: null }, "NOT_FOUND"]);
  });

  it("refuses a child's BR change outside its manager's policy before reading the input, as REST does", async () => {
    const { child, selecting } = await individualChildOfMxManager();
    // An invalid tax id too: the policy is checked first.
    const input = { customerType: "INDIVIDUAL", name: "Ana Souza", taxId: "123" };
    const refused = (await t.graphql(CREATE, { input }, selecting)).body;
    expect(refused.errors[0].extensions).toMatchObject({ code: "MANAGED_PROFILE_ACCESS_DENIED", status: 403 });
    expect(refused.data).toBeNull();
    expectError(
      await post(selecting, "/v1/brl/createSubaccount", { accountType: "INDIVIDUAL", name: "Ana Souza", taxId: "123" }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(await t.app.db.kycCase.count({ where: { profileId: child.managedProfile.profileId } })).toBe(0);
  });
});
