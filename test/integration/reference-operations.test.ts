import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type SignedInProfile } from "../support/app.js";
import { BUY_QUOTE, expectError, expectGraphQLError, ok, waitFor } from "../support/kit.js";
import { randomCnpj, randomCpf } from "../support/kyc.js";

/**
 * Three operations of the reference (issue 14, "every reference operation"), on both faces:
 * POST /v1/brl/kyc/record-attempt (recordBrazilKycAttempt), PUT /v1/onboarding/active-entity
 * (selectActiveEntity) and GET /v1/domestic/findKybCustomerAndBusiness (domesticKybSubmissions).
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

const selecting = (headers: Headers, childId: string): Headers => ({ ...headers, "x-managed-profile-id": childId });

async function quote(headers: Headers, body: Record<string, unknown> = BUY_QUOTE): Promise<string> {
  return ok(await t.request("POST", "/v1/quotes", { headers, body }), 201).id;
}

async function widgetSession(headers: Headers, quoteId: string): Promise<string> {
  const body = { quoteId, externalSessionId: `session-${randomUUID()}` };
  return ok(await t.request("POST", "/v1/session/create", { headers, body }), 201).sessionId;
}

// ---------------------------------------------------------------------------------------------------------

describe("POST /v1/brl/kyc/record-attempt", () => {
  const LATEST = "{ onboardingStatus { latestBrazilKycAttempt { quoteId sessionId recordedAt } } }";
  const RECORD =
    "mutation ($input: RecordBrazilKycAttemptInput!) { recordBrazilKycAttempt(input: $input) { kycAttempt { quoteId sessionId recordedAt } } }";

  const attemptsOf = (profileId: string) =>
    t.app.db.initialBrazilKycAttempt.findMany({ where: { profileId }, orderBy: { createdAt: "asc" } });
  const latestOf = async (headers: Headers) => ok(await t.graphql(LATEST, {}, headers)).data.onboardingStatus;

  it("records the quote and widget session once, answers {}, keeps no tax id, and onboarding status shows it", async () => {
    const profile = await t.newProfile();
    expect((await latestOf(profile.session)).latestBrazilKycAttempt).toBeNull();
    const quoteId = await quote(profile.secret);
    const sessionId = await widgetSession(profile.secret, quoteId);
    const taxId = randomCpf();
    const body = { quoteId, taxId, sessionId };
    const response = await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.secret, body });
    expect(ok(response)).toEqual({});

    const [stored] = await attemptsOf(profile.profileId);
    expect(stored).toMatchObject({ quoteId, sessionId, actorProfileId: profile.profileId });
    expect(JSON.stringify(stored)).not.toContain(taxId);
    const latest = (await latestOf(profile.session)).latestBrazilKycAttempt;
    expect(latest).toEqual({ quoteId, sessionId, recordedAt: stored!.createdAt.toISOString() });

    // Recording it again (formatted, through the session, even without the session) is no error and changes nothing.
    const formatted = `${taxId.slice(0, 3)}.${taxId.slice(3, 6)}.${taxId.slice(6, 9)}-${taxId.slice(9)}`;
    for (const [headers, again] of [
      [profile.session, { quoteId, taxId: formatted, sessionId }],
      [profile.secret, { quoteId, taxId }],
    ] as const)
      expect(ok(await t.request("POST", "/v1/brl/kyc/record-attempt", { headers, body: again }))).toEqual({});
    expect(await attemptsOf(profile.profileId)).toEqual([stored]);

    // A later quote, a company's CNPJ, no session: the latest attempt.
    const laterQuote = await quote(profile.secret);
    const later = { quoteId: laterQuote, taxId: randomCnpj() };
    ok(await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.session, body: later }));
    expect((await latestOf(profile.secret)).latestBrazilKycAttempt).toMatchObject({
      quoteId: laterQuote,
      sessionId: null,
    });
    // The reference's legacy alias is the same operation.
    ok(await t.request("POST", "/v1/brla/kyc/record-attempt", { headers: profile.secret, body: later }));
    expect(await attemptsOf(profile.profileId)).toHaveLength(2);
  });

  it("GraphQL records it as REST does and answers the record, the first one again on a repeat", async () => {
    const profile = await t.newProfile();
    const input = { quoteId: await quote(profile.session), taxId: randomCpf() };
    const first = ok(await t.graphql(RECORD, { input }, profile.session)).data.recordBrazilKycAttempt.kycAttempt;
    expect(first).toEqual({ quoteId: input.quoteId, sessionId: null, recordedAt: expect.any(String) });
    const again = ok(await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.secret, body: input }));
    expect(again).toEqual({});
    expect(ok(await t.graphql(RECORD, { input }, profile.secret)).data.recordBrazilKycAttempt.kycAttempt).toEqual(
      first,
    );
  });

  it("bad input -> 400 VALIDATION_FAILED naming the field, and nothing is recorded", async () => {
    const profile = await t.newProfile();
    const quoteId = await quote(profile.secret);
    const mexican = await quote(profile.secret, {
      rampType: "BUY",
      from: "spei",
      to: "polygon",
      inputAmount: "1000",
      inputCurrency: "MXN",
      outputCurrency: "USDC",
    });
    const cases: [unknown, string][] = [
      [{ quoteId }, "taxId"],
      [{ quoteId, taxId: "123.456.789-00" }, "taxId"],
      [{ quoteId, taxId: "11111111111" }, "taxId"],
      [{ quoteId, taxId: 12345678909 }, "taxId"],
      [{ taxId: randomCpf() }, "quoteId"],
      [{ quoteId, taxId: randomCpf(), sessionId: null }, "sessionId"],
      [{ quoteId, taxId: randomCpf(), userId: profile.profileId }, "(body)"],
      [{ quoteId: mexican, taxId: randomCpf() }, "quoteId"],
    ];
    for (const [body, field] of cases) {
      const response = await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.secret, body });
      expectError(response, 400, "VALIDATION_FAILED", field);
    }
    const graphql = await t.graphql(RECORD, { input: { quoteId, taxId: "not a tax id" } }, profile.session);
    expectGraphQLError(graphql, 400, "VALIDATION_FAILED");
    expect(await attemptsOf(profile.profileId)).toEqual([]);
  });

  it("another profile's quote or widget session, or an unknown one -> 404 NOT_FOUND (no UUID: 400), and nothing is recorded", async () => {
    const profile = await t.newProfile();
    const other = await t.newProfile();
    const othersQuote = await quote(other.secret);
    const ownQuote = await quote(profile.secret);
    const othersSession = await widgetSession(other.secret, othersQuote);
    for (const body of [
      { quoteId: othersQuote, taxId: randomCpf() },
      { quoteId: randomUUID(), taxId: randomCpf() },
      { quoteId: ownQuote, taxId: randomCpf(), sessionId: othersSession },
      { quoteId: ownQuote, taxId: randomCpf(), sessionId: randomUUID() },
    ]) {
      const response = await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.secret, body });
      expectError(response, 404, "NOT_FOUND");
    }
    const malformed = { quoteId: "not-a-quote", taxId: randomCpf() };
    const refused = await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.secret, body: malformed });
    expectError(refused, 400, "VALIDATION_FAILED", "quoteId");
    const graphql = await t.graphql(RECORD, { input: { quoteId: othersQuote, taxId: randomCpf() } }, profile.session);
    expectGraphQLError(graphql, 404, "NOT_FOUND");
    expect(await attemptsOf(profile.profileId)).toEqual([]);
    expect(await attemptsOf(other.profileId)).toEqual([]);
    // A quote nobody owns (a public key's) is anyone's to start from.
    const unowned = await quote(other.publicKey);
    ok(
      await t.request("POST", "/v1/brl/kyc/record-attempt", {
        headers: profile.secret,
        body: { quoteId: unowned, taxId: randomCpf() },
      }),
    );
  });

  it("a manager acts for a child through the selector (its quotes, its customer type, its BR policy); the child's own key too", async () => {
    const manager = await t.newManager(["BR"]);
    const child = await t.newChild(manager, "individual");
    const acting = selecting(manager.secret, child.profileId);
    const childQuote = await quote(acting);
    const body = { quoteId: childQuote, taxId: randomCpf() };
    expect(ok(await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: acting, body }))).toEqual({});
    expect(await attemptsOf(child.profileId)).toMatchObject([
      { quoteId: childQuote, actorProfileId: manager.profileId },
    ]);
    expect(await attemptsOf(manager.profileId)).toEqual([]);
    expect((await latestOf(child.own)).latestBrazilKycAttempt).toMatchObject({ quoteId: childQuote });
    expect((await latestOf(manager.session)).latestBrazilKycAttempt).toBeNull();

    // The manager's own quote is not the child's; a CNPJ names a company, which this child is not.
    const managersQuote = await quote(manager.secret);
    expectError(
      await t.request("POST", "/v1/brl/kyc/record-attempt", {
        headers: acting,
        body: { quoteId: managersQuote, taxId: randomCpf() },
      }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await t.request("POST", "/v1/brl/kyc/record-attempt", {
        headers: acting,
        body: { quoteId: childQuote, taxId: randomCnpj() },
      }),
      400,
      "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH",
    );
    // The child's own key records for itself.
    const ownQuote = await quote(child.own);
    ok(
      await t.request("POST", "/v1/brl/kyc/record-attempt", {
        headers: child.own,
        body: { quoteId: ownQuote, taxId: randomCpf() },
      }),
    );
    expect(await attemptsOf(child.profileId)).toHaveLength(2);

    // A manager whose policy leaves BR out may not: 403 before the input is read.
    const elsewhere = await t.newManager(["MX"]);
    const mxChild = await t.newChild(elsewhere, "individual");
    expectError(
      await t.request("POST", "/v1/brl/kyc/record-attempt", {
        headers: selecting(elsewhere.secret, mxChild.profileId),
        body: { quoteId: "anything", taxId: randomCpf() },
      }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    // Another manager's child is no one to act for.
    expectError(
      await t.request("POST", "/v1/brl/kyc/record-attempt", {
        headers: selecting(elsewhere.secret, child.profileId),
        body,
      }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(await attemptsOf(mxChild.profileId)).toEqual([]);
  });

  it("a public key -> 403 FORBIDDEN; no credential -> 401", async () => {
    const profile = await t.newProfile();
    const body = { quoteId: await quote(profile.secret), taxId: randomCpf() };
    expectError(
      await t.request("POST", "/v1/brl/kyc/record-attempt", { headers: profile.publicKey, body }),
      403,
      "FORBIDDEN",
    );
    expectError(await t.request("POST", "/v1/brl/kyc/record-attempt", { body }), 401, "AUTHENTICATION_REQUIRED");
    expect(await attemptsOf(profile.profileId)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("PUT /v1/onboarding/active-entity", () => {
  const SELECT =
    "mutation ($customerType: CustomerType!) { selectActiveEntity(customerType: $customerType) { activeEntity { activeEntityId customerType } } }";
  const status = async (headers: Headers) => ok(await t.request("GET", "/v1/onboarding/status", { headers }));
  const select = (headers: Headers, body: unknown) =>
    t.request("PUT", "/v1/onboarding/active-entity", { headers, body });
  const selectionOf = (profileId: string) => t.app.db.customerEntitySelection.findUnique({ where: { profileId } });

  /** A direct profile with an individual and a business customer: two entities, none chosen yet. */
  async function withBusiness(): Promise<SignedInProfile & { individualId: string; businessId: string }> {
    const profile = await t.newProfile();
    ok(
      await t.request("POST", "/v1/domestic/createBusinessCustomer", {
        headers: profile.secret,
        body: { country: "MX" },
      }),
    );
    const before = await status(profile.secret);
    expect(before).toMatchObject({ activeEntityId: null, selectionRequired: true });
    const [individual, business] = before.entities;
    expect([individual.type, business.type]).toEqual(["individual", "business"]);
    return { ...profile, individualId: individual.id, businessId: business.id };
  }

  it("chooses among the profile's entities for good: status follows, the same choice again answers the same", async () => {
    const profile = await withBusiness();
    const chosen = ok(await select(profile.session, { type: "business" }));
    expect(chosen).toEqual({ activeEntityId: profile.businessId, type: "business" });
    expect(await status(profile.secret)).toMatchObject({
      activeEntityId: profile.businessId,
      selectionRequired: false,
      entities: [
        { id: profile.individualId, type: "individual", status: "active" },
        { id: profile.businessId, type: "business", status: "active" },
      ],
    });
    expect(ok(await select(profile.session, { type: "business" }))).toEqual(chosen);
    const graphql = ok(await t.graphql(SELECT, { customerType: "BUSINESS" }, profile.session));
    expect(graphql.data.selectActiveEntity.activeEntity).toEqual({
      activeEntityId: profile.businessId,
      customerType: "BUSINESS",
    });
    expect(
      ok(await t.graphql("{ onboardingStatus { activeEntityId selectionRequired } }", {}, profile.session)).data,
    ).toEqual({ onboardingStatus: { activeEntityId: profile.businessId, selectionRequired: false } });

    // Another entity afterwards is refused, and the choice stays.
    expectError(await select(profile.session, { type: "individual" }), 409, "ACTIVE_ENTITY_CHOSEN");
    expectGraphQLError(
      await t.graphql(SELECT, { customerType: "INDIVIDUAL" }, profile.session),
      409,
      "ACTIVE_ENTITY_CHOSEN",
    );
    expect((await status(profile.secret)).activeEntityId).toBe(profile.businessId);
    expect(await selectionOf(profile.profileId)).toMatchObject({ customerType: "business" });
  });

  it("a type without an entity -> 404 NOT_FOUND, nothing chosen; the individual chosen early stays once a business comes", async () => {
    const profile = await t.newProfile();
    expectError(await select(profile.session, { type: "business" }), 404, "NOT_FOUND");
    expectGraphQLError(await t.graphql(SELECT, { customerType: "BUSINESS" }, profile.session), 404, "NOT_FOUND");
    expect(await selectionOf(profile.profileId)).toBeNull();

    const individualId = (await status(profile.secret)).activeEntityId;
    expect(ok(await select(profile.session, { type: "individual" }))).toEqual({
      activeEntityId: individualId,
      type: "individual",
    });
    ok(
      await t.request("POST", "/v1/brl/createSubaccount", {
        headers: profile.secret,
        body: { accountType: "COMPANY", name: "Acme Ltda", taxId: randomCnpj() },
      }),
    );
    const after = await status(profile.secret);
    expect(after).toMatchObject({ activeEntityId: individualId, selectionRequired: false });
    expect(after.entities.map((entity: { type: string }) => entity.type)).toEqual(["individual", "business"]);
  });

  it("bad input -> 400 VALIDATION_FAILED and nothing is chosen", async () => {
    const profile = await withBusiness();
    for (const body of [
      {},
      { type: "person" },
      { type: "BUSINESS" },
      { type: null },
      { type: "business", extra: 1 },
      [],
    ]) {
      expectError(await select(profile.session, body), 400, "VALIDATION_FAILED");
    }
    expect(await selectionOf(profile.profileId)).toBeNull();
    expect((await status(profile.secret)).selectionRequired).toBe(true);
  });

  it("concurrent different choices: exactly one wins, and it is the one kept", async () => {
    const profile = await withBusiness();
    const answers = await Promise.all(
      ["individual", "business", "individual", "business"].map((type) => select(profile.session, { type })),
    );
    const won = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.type);
    expect(new Set(won).size).toBe(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200))
      expectError(answer, 409, "ACTIVE_ENTITY_CHOSEN");
    expect(await selectionOf(profile.profileId)).toMatchObject({ customerType: won[0] });
  });

  it("one profile's choice is its own; a session only (keys 403), no selector (400), no credential (401)", async () => {
    const profile = await withBusiness();
    const other = await withBusiness();
    ok(await select(profile.session, { type: "business" }));
    expect(await status(other.secret)).toMatchObject({ activeEntityId: null, selectionRequired: true });

    const manager = await t.newManager(["BR", "MX"]);
    const child = await t.newChild(manager, "business");
    expectError(await select(profile.secret, { type: "individual" }), 403, "FORBIDDEN");
    expectError(await select(profile.publicKey, { type: "individual" }), 403, "FORBIDDEN");
    expectError(await select(child.own, { type: "business" }), 403, "FORBIDDEN");
    expectError(await select({}, { type: "individual" }), 401, "AUTHENTICATION_REQUIRED");
    // The reference does not delegate this choice: a child has its one entity.
    expectError(
      await select(selecting(manager.session, child.profileId), { type: "business" }),
      400,
      "MANAGED_PROFILE_UNSUPPORTED",
    );
    expectGraphQLError(
      await t.graphql(SELECT, { customerType: "BUSINESS" }, selecting(manager.session, child.profileId)),
      400,
      "MANAGED_PROFILE_UNSUPPORTED",
    );
    expect(await selectionOf(child.profileId)).toBeNull();
    expect(await selectionOf(manager.profileId)).toBeNull();
    expect((await status(profile.secret)).activeEntityId).toBe(profile.businessId);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe("GET /v1/domestic/findKybCustomerAndBusiness", () => {
  const SUBMISSIONS =
    "query ($country: DomesticKybCountry!) { domesticKybSubmissions(country: $country) { submissionId relatedPersonIds } }";
  const person = (firstName: string, lastName = "Pérez") => ({
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}@example.com`,
    dateOfBirth: "1985-02-03",
    nationalities: ["CO"],
  });
  const KYB = { businessName: "Acme SAS", taxId: "900123456" };
  const find = (headers: Headers, query = "?country=CO", prefix = "/v1/domestic") =>
    t.request("GET", `${prefix}/findKybCustomerAndBusiness${query}`, { headers });
  const submitKyb = (headers: Headers, body: Record<string, unknown>) =>
    t.request("POST", "/v1/domestic/submitKybInformation", { headers, body: { country: "CO", ...KYB, ...body } });
  const businessCustomer = async (headers: Headers, country = "CO") =>
    ok(await t.request("POST", "/v1/domestic/createBusinessCustomer", { headers, body: { country } }));
  const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
  /** Sends the CO KYB submission and answers its status once the partner's decision is observed. */
  const sendAndAwaitDecision = async (headers: Headers, submissionId: string) => {
    ok(await t.request("POST", "/v1/domestic/sendKybSubmission", { headers, body: { country: "CO", submissionId } }));
    return t.followingKyc(() =>
      waitFor(
        async () => ok(await t.request("GET", "/v1/domestic/getKycStatus?country=CO&type=BUSINESS", { headers })),
        (status) => status.status !== "VERIFYING",
        "the partner's KYB decision",
      ),
    );
  };

  it("lists the business customer's API submission with the provider's ids of its related persons, on every face", async () => {
    const profile = await t.newProfile();
    await businessCustomer(profile.secret);
    expect(ok(await find(profile.secret))).toEqual([]);

    // The partner rejects this one (a person's name contains "reject"), so that it can be replaced after a retry.
    const { submissionId } = ok(
      await submitKyb(profile.secret, {
        relatedPersons: [
          { ...person("Juana"), dni: "1234567890", pep: false },
          { ...person("Carlos", "Rejected"), cpf: randomCpf() },
        ],
      }),
    );
    const found = ok(await find(profile.secret));
    expect(found).toEqual([{ submissionId, relatedPersons: [{ idRelatedPerson: UUID }, { idRelatedPerson: UUID }] }]);
    const [first, second] = found[0].relatedPersons;
    expect(first.idRelatedPerson).not.toBe(second.idRelatedPerson);
    expect(ok(await find(profile.session, "", "/v1/co"))).toEqual(found);
    expect(ok(await t.graphql(SUBMISSIONS, { country: "CO" }, profile.session)).data.domesticKybSubmissions).toEqual([
      { submissionId, relatedPersonIds: [first.idRelatedPerson, second.idRelatedPerson] },
    ]);
    // No personal data of the persons is kept: only the provider's ids.
    const stored = await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: profile.profileId, corridor: "CO" } });
    expect(JSON.parse(stored.relatedPersonIds!)).toEqual([first.idRelatedPerson, second.idRelatedPerson]);
    expect(JSON.stringify(stored)).not.toContain("Juana");

    // Once rejected and retried, no submission is listed until information is given again (through GraphQL, whose
    // fields carry the project's names), which replaces it. The partner takes a new KYB form only then: while one is
    // open, it keeps that one.
    expect((await sendAndAwaitDecision(profile.secret, submissionId)).status).toBe("FAILED");
    ok(
      await t.request("POST", "/v1/domestic/retryKyc", {
        headers: profile.secret,
        body: { country: "CO", type: "BUSINESS" },
      }),
    );
    expect(ok(await find(profile.secret))).toEqual([]);
    const again = await t.graphql(
      "mutation ($input: DomesticKybInformationInput!) { submitDomesticKybInformation(country: CO, input: $input) { submission { submissionId } } }",
      { input: { ...KYB, relatedPersons: [{ ...person("Ana"), documentNumber: "55", politicallyExposed: true }] } },
      profile.session,
    );
    const replaced = ok(again).data.submitDomesticKybInformation.submission.submissionId;
    const now = ok(await find(profile.secret));
    expect(now).toEqual([{ submissionId: replaced, relatedPersons: [{ idRelatedPerson: UUID }] }]);
    expect(now[0].relatedPersons[0].idRelatedPerson).not.toBe(first.idRelatedPerson);

    // Without related persons: the submission alone.
    const withoutPersons = await t.newProfile();
    await businessCustomer(withoutPersons.secret);
    const { submissionId: bare } = ok(await submitKyb(withoutPersons.secret, {}));
    expect(ok(await find(withoutPersons.secret))).toEqual([{ submissionId: bare, relatedPersons: [] }]);
  });

  it("a hosted KYB has no submission to upload for; the partner decides on the related persons' names too", async () => {
    const hosted = await t.newProfile();
    await t.completeKyc(hosted.secret, ["MX"], "business");
    expect(ok(await find(hosted.secret, "?country=MX"))).toEqual([]);

    const rejected = await t.newProfile();
    await businessCustomer(rejected.secret);
    const { submissionId } = ok(await submitKyb(rejected.secret, { relatedPersons: [person("Reject")] }));
    expect((await sendAndAwaitDecision(rejected.secret, submissionId)).status).toBe("FAILED");
    expect(ok(await find(rejected.secret))).toEqual([{ submissionId, relatedPersons: [{ idRelatedPerson: UUID }] }]);
  });

  it("no business customer in the country -> 404 NOT_FOUND, another profile's included", async () => {
    const profile = await t.newProfile();
    expectError(await find(profile.secret), 404, "NOT_FOUND");
    ok(
      await t.request("POST", "/v1/domestic/createIndividualCustomer", {
        headers: profile.secret,
        body: { country: "CO" },
      }),
    );
    expectError(await find(profile.secret), 404, "NOT_FOUND");
    await businessCustomer(profile.secret, "MX");
    expectError(await find(profile.secret), 404, "NOT_FOUND");
    expectGraphQLError(await t.graphql(SUBMISSIONS, { country: "CO" }, profile.session), 404, "NOT_FOUND");

    const other = await t.newProfile();
    await businessCustomer(other.secret);
    ok(await submitKyb(other.secret, { relatedPersons: [person("Juana")] }));
    expectError(await find(profile.secret), 404, "NOT_FOUND");
  });

  it("bad input -> 400 VALIDATION_FAILED; bad related persons change nothing", async () => {
    const profile = await t.newProfile();
    await businessCustomer(profile.secret);
    for (const [query, prefix] of [
      ["?country=AR", "/v1/domestic"],
      ["?country=US", "/v1/domestic"],
      ["?country=co", "/v1/domestic"],
      ["", "/v1/domestic"],
      ["", "/v1/ar"],
      ["?country=MX", "/v1/co"],
      ["?country=CO&type=BUSINESS", "/v1/domestic"],
    ]) {
      expectError(await find(profile.secret, query, prefix), 400, "VALIDATION_FAILED");
    }
    expectGraphQLError(await t.graphql(SUBMISSIONS, { country: "AR" }, profile.session), 400, "VALIDATION_FAILED");

    for (const relatedPersons of [
      [],
      [{ ...person("Juana"), nationalities: [] }],
      [{ ...person("Juana"), email: "not an email" }],
      [{ ...person("Juana"), cpf: "123" }],
      [{ ...person("Juana"), age: 40 }],
      "Juana",
    ]) {
      expectError(await submitKyb(profile.secret, { relatedPersons }), 400, "VALIDATION_FAILED");
    }
    expect(ok(await find(profile.secret))).toEqual([]);
  });

  it("a manager reads a business child's submissions through the selector, the child with its own key; the manager's own are its own", async () => {
    const manager = await t.newManager(["CO", "MX"]);
    const child = await t.newChild(manager, "business");
    const acting = selecting(manager.secret, child.profileId);
    await businessCustomer(acting);
    const { submissionId } = ok(await submitKyb(acting, { relatedPersons: [person("Juana")] }));
    const expected = [{ submissionId, relatedPersons: [{ idRelatedPerson: UUID }] }];
    expect(ok(await find(acting))).toEqual(expected);
    expect(ok(await find(selecting(manager.session, child.profileId), "", "/v1/co"))).toEqual(expected);
    expect(ok(await find(child.own))).toEqual(expected);
    expectError(await find(manager.secret), 404, "NOT_FOUND");
    const stranger = await t.newManager(["CO"]);
    expectError(await find(selecting(stranger.secret, child.profileId)), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    expectError(await find(selecting(manager.secret, "not-a-uuid")), 400, "INVALID_MANAGED_PROFILE_ID");
    expectError(await find(manager.publicKey), 403, "FORBIDDEN");
  });
});
