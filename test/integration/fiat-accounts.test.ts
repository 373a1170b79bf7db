import { randomInt, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ERROR_TABLE } from "../../src/errors.js";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError, expectPagedList, newestFirst, ok, seedTimes } from "../support/kit.js";

/**
 * Payout fiat accounts over REST (CONTRACT.md, KYC/KYB and fiat accounts; issue 6): creation with the
 * country from the path alias, the query or the body, field-level validation, owner scoping and soft
 * deletion, delegation with the corridor check, and SELL ramps paying out to an account of the same
 * subject and corridor, on the project's engine. Every account is registered at Alfredpay (the partner
 * simulator, read back through its own API) and deleted there.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { workers: true },
  );
});
afterAll(() => t?.close());
afterEach(() => t.partners.simulator.clearFaults());

type Headers = Record<string, string>;

/** Real numbers with valid check digits (ABA 021000021, CLABE 032180000118359719, CBU 2850590940090418135201). */
const US_ACH = {
  country: "US",
  type: "ACH",
  accountNumber: "000123456789",
  routingNumber: "021000021",
  accountType: "checking",
  accountName: "Jane Doe",
};
const MX_SPEI = { country: "MX", type: "SPEI", accountNumber: "032180000118359719", accountName: "Juana Pérez" };
const AR_COELSA = {
  country: "AR",
  type: "COELSA",
  accountNumber: "2850590940090418135201",
  documentType: "CUIT",
  documentNumber: "20-12345678-6",
  accountName: "Juan García",
};
const WALLET = `0x${"3".repeat(40)}`;
const MX_SELL = {
  rampType: "SELL",
  from: "polygon",
  to: "spei",
  inputAmount: "50",
  inputCurrency: "USDC",
  outputCurrency: "MXN",
};

async function newUser(): Promise<{ profileId: string; session: Headers; secret: Headers }> {
  const session = await t.signIn();
  const credential = await t.createCredential(session.headers);
  return { profileId: session.profileId, session: session.headers, secret: { "x-api-key": credential.secretKey } };
}

/** The subject's provider customer in each country: payout accounts belong to it, so it comes first. */
async function customers(headers: Headers, ...countries: Corridor[]): Promise<void> {
  for (const country of countries)
    ok(await t.request("POST", "/v1/domestic/createIndividualCustomer", { headers, body: { country } }), 200);
}

const create = (headers: Headers, body: unknown, path = "/v1/domestic/fiatAccounts") =>
  t.request("POST", path, { headers, body });
const list = (headers: Headers, query = "?country=US", path = "/v1/domestic/fiatAccounts") =>
  t.request("GET", `${path}${query}`, { headers });
const accountCount = () => t.app.db.fiatAccount.count();
const remove = (headers: Headers, fiatAccountId: string) =>
  t.request("DELETE", `/v1/domestic/fiatAccounts/${fiatAccountId}`, { headers });

const ALFREDPAY_API = "/api/v1/third-party-service/penny";
/** Alfredpay's own API (the simulator's), as the partner answers it: every field it holds. */
async function alfredpay(method: "GET" | "DELETE", path: string): Promise<any> {
  const { ALFREDPAY_API_KEY, ALFREDPAY_API_SECRET } = t.partners.env;
  const response = await fetch(`${t.partners.simulator.url}${ALFREDPAY_API}${path}`, {
    method,
    headers: { "api-key": ALFREDPAY_API_KEY!, "api-secret": ALFREDPAY_API_SECRET! },
  });
  expect(response.status).toBe(200);
  return response.headers.get("content-type")?.includes("json") ? response.json() : undefined;
}
/** The accounts Alfredpay holds for its customer. */
const atPartner = (customerId: string): Promise<Record<string, any>[]> =>
  alfredpay("GET", `/fiatAccounts?customerId=${encodeURIComponent(customerId)}`);
/** Our account's row, with the partner's customer and account it is registered as. */
const stored = (fiatAccountId: string) => t.app.db.fiatAccount.findUniqueOrThrow({ where: { id: fiatAccountId } });
const CREATE_AT_PARTNER = `POST ${ALFREDPAY_API}/fiatAccounts`;
const DELETE_AT_PARTNER = `DELETE ${ALFREDPAY_API}/fiatAccounts/{customerId}/{fiatAccountId}`;
const partnerCreations = () => t.partners.simulator.stats().alfredpay.calls[CREATE_AT_PARTNER] ?? 0;
/** The subject's customer at the partner in the country, as its KYC case names it. */
async function customerIdOf(profileId: string, corridor: Corridor): Promise<string> {
  const cases = await t.app.db.kycCase.findMany({ where: { profileId, corridor } });
  expect(cases).toHaveLength(1);
  return cases[0]!.providerCustomerId;
}

describe("creating and listing", () => {
  it("creates an account (200 {fiatAccountId}) and lists the subject's accounts of a country, newest first, number masked", async () => {
    const user = await newUser();
    await customers(user.secret, "US", "MX");
    const first = ok(await create(user.secret, US_ACH), 200);
    expect(Object.keys(first)).toEqual(["fiatAccountId"]);
    const second = ok(
      await create(user.session, { ...US_ACH, accountNumber: "9876 5432 10", accountType: "savings" }),
      200,
    );
    ok(await create(user.secret, MX_SPEI), 200);

    const accounts = ok(await list(user.secret), 200);
    expect(accounts.map((account: any) => account.fiatAccountId)).toEqual([second.fiatAccountId, first.fiatAccountId]);
    expect(accounts[0]).toMatchObject({
      country: "US",
      type: "ACH",
      accountNumber: "****3210",
      accountName: "Jane Doe",
      accountType: "savings",
      routingNumber: "021000021",
    });
    expect(accounts[1].accountNumber).toBe("****6789");
    expect(accounts[0].customerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(accounts[0].createdAt).toISOString()).toBe(accounts[0].createdAt);
    expect(ok(await list(user.secret, "?country=MX"), 200).map((account: any) => account.type)).toEqual(["SPEI"]);
    expect(ok(await list(user.secret, "?country=CO"), 200)).toEqual([]);
  });

  it("lists a page at a time: 50 by default, then by limit and offset, newest first across pages; a limit over 100 is 400", async () => {
    const user = await newUser();
    await customers(user.secret, "US");
    const { fiatAccountId } = ok(await create(user.secret, US_ACH), 200);
    const stored = await t.app.db.fiatAccount.findUniqueOrThrow({ where: { id: fiatAccountId } });
    // More than a page, stored directly as copies of the one created, the first a deleted one (never listed).
    const copies = seedTimes(56).map((createdAt, index) => ({
      ...stored,
      id: randomUUID(),
      createdAt,
      deletedAt: index === 0 ? createdAt : null,
    }));
    await t.app.db.fiatAccount.createMany({ data: copies });
    const listed = [stored, ...copies.filter((copy) => copy.deletedAt === null)];
    const ids = (accounts: { fiatAccountId: string }[]) => accounts.map((account) => account.fiatAccountId);
    await expectPagedList(
      {
        // The reference answers a bare array: the page is bounded, and a short page says it is the last.
        read: (query) => list(user.secret, `?country=US&${query}`),
        ids,
        pagination: false,
        connection: async (first, after) => {
          const { fiatAccounts } = ok(
            await t.graphql(
              "query ($first: Int!, $after: String) { fiatAccounts(country: US, first: $first, after: $after) { edges { node { fiatAccountId } } pageInfo { hasNextPage endCursor } } }",
              { first, after },
              user.secret,
            ),
          ).data;
          return {
            ids: ids(fiatAccounts.edges.map((edge: { node: { fiatAccountId: string } }) => edge.node)),
            ...fiatAccounts.pageInfo,
          };
        },
      },
      newestFirst(listed, (account) => account.createdAt),
    );
    // The country aliases are bounded the same way.
    expectError(await list(user.secret, "?limit=101", "/v1/mx/fiatAccounts"), 400, "VALIDATION_FAILED", "limit");
  });

  it("takes the country from the path alias, the query or the body; a conflict or none is 400 and creates nothing", async () => {
    const user = await newUser();
    await customers(user.secret, "MX", "AR");
    const { country: _country, ...spei } = MX_SPEI;
    ok(await create(user.secret, spei, "/v1/mx/fiatAccounts"), 200);
    ok(await create(user.secret, spei, "/v1/domestic/fiatAccounts?country=MX"), 200);
    ok(await create(user.secret, MX_SPEI, "/v1/mx/fiatAccounts?country=MX"), 200);
    ok(await create(user.secret, AR_COELSA, "/v1/ar/fiatAccounts"), 200);
    expect(ok(await list(user.secret, "", "/v1/mx/fiatAccounts"), 200)).toHaveLength(3);
    expect(ok(await list(user.secret, "?country=AR", "/v1/ar/fiatAccounts"), 200)).toHaveLength(1);

    const before = await accountCount();
    for (const [path, body, message] of [
      ["/v1/domestic/fiatAccounts?country=US", MX_SPEI, "differs between the query (US) and the body (MX)"],
      ["/v1/mx/fiatAccounts", US_ACH, "differs between the path (MX) and the body (US)"],
      ["/v1/co/fiatAccounts?country=MX", spei, "differs between the path (CO) and the query (MX)"],
      ["/v1/domestic/fiatAccounts", spei, "is required (one of AR, CO, MX, US)"],
      ["/v1/domestic/fiatAccounts?country=BR", spei, "in the query must be one of AR, CO, MX, US"],
    ] as const) {
      const response = await create(user.secret, body, path);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([{ field: "country", message }]);
    }
    expectError(await list(user.secret, ""), 400, "VALIDATION_FAILED");
    expectError(await list(user.secret, "?country=MX", "/v1/co/fiatAccounts"), 400, "VALIDATION_FAILED");
    expect(await accountCount()).toBe(before);
  });

  it("rejects wrong check digits and missing fields with field-level details, creating nothing", async () => {
    const user = await newUser();
    const before = await accountCount();
    const cases: [unknown, string][] = [
      [{ ...US_ACH, routingNumber: "021000022" }, "routingNumber"],
      [{ ...MX_SPEI, accountNumber: "032180000118359710" }, "accountNumber"],
      [{ ...AR_COELSA, accountNumber: "2850590940090418135202" }, "accountNumber"],
      [{ ...AR_COELSA, documentNumber: "20-12345678-5" }, "documentNumber"],
      [{ ...MX_SPEI, type: "ACH" }, "type"],
      [{ ...US_ACH, nickname: "main" }, "nickname"],
    ];
    for (const [body, field] of cases) {
      const response = await create(user.secret, body);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(
        response.body.error.details.map((detail: { field: string }) => detail.field),
        JSON.stringify(response.body),
      ).toContain(field);
    }
    expect(await accountCount()).toBe(before);
  });

  it("takes what the reference requires (country, type, accountNumber) and lists every account with an accountType and no null", async () => {
    const user = await newUser();
    await customers(user.secret, "US", "MX", "AR", "CO");
    // The reference's DomesticAddFiatAccountRequest requires only these three; the rails' own rules still apply.
    const withoutName = ({ accountName: _name, ...account }: Record<string, unknown>) => account;
    const bodies = {
      US: withoutName(US_ACH),
      MX: withoutName(MX_SPEI),
      AR: withoutName(AR_COELSA),
      CO: {
        country: "CO",
        type: "ACH",
        accountNumber: "0110123456789",
        accountType: "savings",
        accountBankCode: "1007",
        documentType: "CC",
        documentNumber: "1020304050",
      },
    };
    for (const body of Object.values(bodies)) ok(await create(user.secret, body), 200);
    ok(await create(user.secret, { ...MX_SPEI, accountNumber: "002010077777777771" }), 200);

    const listed = Object.fromEntries(
      await Promise.all(
        Object.keys(bodies).map(async (country) => [country, ok(await list(user.secret, `?country=${country}`))]),
      ),
    );
    // The reference's DomesticFiatAccount: accountType is a string; an optional field is left out, never null.
    for (const account of Object.values(listed).flat() as Record<string, unknown>[]) {
      expect(Object.values(account), JSON.stringify(account)).not.toContain(null);
      expect(typeof account.accountType, JSON.stringify(account)).toBe("string");
    }
    expect(listed.US).toEqual([expect.not.objectContaining({ accountName: expect.anything() })]);
    expect(listed.US[0]).toMatchObject({ accountType: "checking", routingNumber: "021000021" });
    expect(listed.US[0]).not.toHaveProperty("accountBankCode");
    // A CLABE or a CBU names the account on rails that take no bank account type (as Alfredpay records it).
    expect(listed.MX.map((account: any) => [account.accountType, account.accountName])).toEqual([
      ["clabe", "Juana Pérez"],
      ["clabe", undefined],
    ]);
    expect(listed.AR[0]).toMatchObject({ accountType: "cbu" });
    expect(listed.CO[0]).toMatchObject({ accountType: "savings", accountBankCode: "1007" });

    // GraphQL shows the same accounts: null where REST leaves a field out.
    const graphql = await t.graphql(
      "query { fiatAccounts(country: MX, first: 5) { edges { node { accountName accountType routingNumber } } } }",
      {},
      user.secret,
    );
    expect(graphql.body.data.fiatAccounts.edges.map(({ node }: any) => node)).toEqual([
      { accountName: "Juana Pérez", accountType: "CLABE", routingNumber: null },
      { accountName: null, accountType: "CLABE", routingNumber: null },
    ]);
    const created = await t.graphql(
      "mutation ($input: CreateFiatAccountInput!) { createFiatAccount(input: $input) { fiatAccount { accountName accountType } } }",
      { input: withoutName(AR_COELSA) },
      user.secret,
    );
    expect(created.body.data.createFiatAccount.fiatAccount).toEqual({ accountName: null, accountType: "CBU" });
  });

  it("refuses public keys and anonymous callers", async () => {
    const user = await newUser();
    const credential = await t.createCredential(user.session);
    expectError(await create({ "x-public-key": credential.publicKey }, US_ACH), 403, "FORBIDDEN");
    expectError(await list({}), 401, "AUTHENTICATION_REQUIRED");
  });
});

describe("at Alfredpay", () => {
  it("registers each rail's account under the subject's customer in Alfredpay's fields, and stores the partner's id beside ours", async () => {
    const user = await newUser();
    await customers(user.secret, "US", "MX", "AR", "CO");
    // Personal data the log audit looks for: neither reaches a log on the way to the partner.
    const usAccountNumber = rememberSecret(String(randomInt(10 ** 9, 10 ** 10)));
    const holder = rememberSecret(`Juana Pérez ${randomUUID().slice(0, 8)}`);
    const bodies = {
      MX: { ...MX_SPEI, accountName: holder },
      AR: AR_COELSA,
      CVU: { ...AR_COELSA, accountNumber: "0000003100010000000016" },
      CO: {
        country: "CO",
        type: "ACH",
        accountNumber: "0110123456789",
        accountType: "savings",
        accountBankCode: "1007",
        documentType: "CC",
        documentNumber: "1020304050",
        accountName: "María Gómez",
      },
      US: { ...US_ACH, accountNumber: usAccountNumber, accountBankCode: "Chase" },
      WIRE: {
        ...US_ACH,
        type: "BANK_USA",
        accountType: "savings",
        isExternal: true,
        beneficiaryStreet: "1 Main St",
        beneficiaryCity: "Austin",
        beneficiaryState: "tx",
        beneficiaryPostalCode: "73301",
      },
    };
    const partnerView: Record<string, Record<string, any>> = {};
    for (const [name, body] of Object.entries(bodies)) {
      const { fiatAccountId } = ok(await create(user.secret, body), 200);
      const row = await stored(fiatAccountId);
      expect(row.partnerCustomerId).toBe(await customerIdOf(user.profileId, body.country as Corridor));
      const held = await atPartner(row.partnerCustomerId!);
      partnerView[name] = held.find((account) => account.fiatAccountId === row.partnerAccountId)!;
      expect(partnerView[name], `${name} at the partner`).toMatchObject({ customerId: row.partnerCustomerId });
      // The partner's ids stay ours to know: the list shows our id and the customer only.
      const listed = ok(await list(user.secret, `?country=${body.country}`)).find(
        (account: any) => account.fiatAccountId === fiatAccountId,
      );
      expect(listed.customerId).toBe(row.partnerCustomerId);
      expect(Object.values(listed)).not.toContain(row.partnerAccountId);
    }

    const { MX, AR, CVU, CO, US, WIRE } = partnerView;
    expect(MX).toMatchObject({
      type: "SPEI",
      isExternal: false,
      accountNumber: "032180000118359719",
      accountType: "CLABE",
      metadata: { accountHolderName: holder },
    });
    expect(AR).toMatchObject({ type: "COELSA", accountNumber: "2850590940090418135201", accountType: "CBU" });
    expect(CVU).toMatchObject({ accountType: "CVU" });
    // The CUIT and the holder's name have no place in COELSA's fields: they stay with us.
    expect(JSON.stringify([AR, CVU])).not.toMatch(/12345678|García|metadata/);
    expect(CO).toMatchObject({
      type: "ACH",
      accountName: "1007",
      accountNumber: "0110123456789",
      accountType: "AHORRO",
      metadata: { accountHolderName: "María Gómez", documentType: "CC", documentNumber: "1020304050" },
    });
    expect(US).toEqual({
      fiatAccountId: expect.any(String),
      customerId: expect.any(String),
      createdAt: expect.any(String),
      type: "ACH",
      isExternal: false,
      accountName: "Chase",
      accountNumber: usAccountNumber,
      accountType: "CHECKING",
      routingNumber: "021000021",
    });
    expect(WIRE).toMatchObject({
      type: "BANK_USA",
      isExternal: true,
      accountType: "SAVINGS",
      routingNumber: "021000021",
      metadata: {
        beneficiaryAddress: { street: "1 Main St", city: "Austin", stateProvince: "TX", postalCode: "73301" },
      },
    });
  });

  it("needs the subject's customer: before it exists 404 and nothing reaches the partner; a customer whose KYC has not started may add accounts", async () => {
    const user = await newUser();
    const sent = partnerCreations();
    const before = await create(user.secret, MX_SPEI);
    expectError(before, 404, "NOT_FOUND");
    expect(before.body.error.message).toBe("Customer not found: create the MX customer first.");
    expect(partnerCreations()).toBe(sent);

    await customers(user.secret, "MX");
    expect((await t.app.db.kycCase.findFirstOrThrow({ where: { profileId: user.profileId } })).status).toBe(
      "not_started",
    );
    const { fiatAccountId } = ok(await create(user.secret, MX_SPEI), 200);
    expect(await atPartner(await customerIdOf(user.profileId, "MX"))).toMatchObject([
      { fiatAccountId: (await stored(fiatAccountId)).partnerAccountId },
    ]);
  });

  it("a partner refusal (422 PROVIDER_REJECTED) or outage (502 PROVIDER_UNAVAILABLE) creates nothing here nor there, in the table's words", async () => {
    const user = await newUser();
    await customers(user.secret, "MX");
    const customerId = await customerIdOf(user.profileId, "MX");
    for (const [status, answer, code] of [
      [400, 422, "PROVIDER_REJECTED"],
      [503, 502, "PROVIDER_UNAVAILABLE"],
    ] as const) {
      t.partners.simulator.setFaults({
        partner: "alfredpay",
        failNext: { count: 1, status, when: "before", route: CREATE_AT_PARTNER },
      });
      const before = await accountCount();
      const sent = partnerCreations();
      const response = await create(user.secret, MX_SPEI);
      expectError(response, answer, code);
      // Our words, never the partner's body.
      expect(response.body.error.message).toBe(ERROR_TABLE[code].message);
      expect(partnerCreations()).toBe(sent + 1);
      expect(await accountCount()).toBe(before);
      expect(await atPartner(customerId)).toEqual([]);
    }
    ok(await create(user.secret, MX_SPEI), 200);
    expect(await atPartner(customerId)).toHaveLength(1);
  });

  it("an account the database fails to store is removed at the partner again, and the failure answered", async () => {
    const user = await newUser();
    await customers(user.secret, "MX");
    const customerId = await customerIdOf(user.profileId, "MX");
    const before = await accountCount();
    const insert = vi.spyOn(t.app.db.fiatAccount, "create").mockRejectedValueOnce(new Error("the disk is full"));
    try {
      expectError(await create(user.secret, MX_SPEI), 500, "INTERNAL");
    } finally {
      insert.mockRestore();
    }
    expect(partnerCreations()).toBeGreaterThan(0);
    expect(await atPartner(customerId)).toEqual([]);
    expect(await accountCount()).toBe(before);
  });

  it("deletes at the partner, then here; one the partner no longer has is deleted here all the same; a partner outage or refusal keeps it in both", async () => {
    const user = await newUser();
    await customers(user.secret, "MX");
    const customerId = await customerIdOf(user.profileId, "MX");
    const [kept, goneThere] = [
      ok(await create(user.secret, MX_SPEI), 200).fiatAccountId,
      ok(await create(user.secret, MX_SPEI), 200).fiatAccountId,
    ];
    const partnerIds = async (...ids: string[]) =>
      Promise.all(ids.map(async (id) => (await stored(id)).partnerAccountId));
    const held = async () => (await atPartner(customerId)).map((account) => account.fiatAccountId).sort();
    expect(await held()).toEqual((await partnerIds(kept, goneThere)).sort());

    // Down for the call and both retries of the (idempotent) delete, then a refusal.
    for (const [fault, answer, code] of [
      [{ count: 3, status: 503 }, 502, "PROVIDER_UNAVAILABLE"],
      [{ count: 1, status: 422 }, 422, "PROVIDER_REJECTED"],
    ] as const) {
      t.partners.simulator.setFaults({
        partner: "alfredpay",
        failNext: { ...fault, when: "before", route: DELETE_AT_PARTNER },
      });
      expectError(await remove(user.secret, kept), answer, code);
      expect((await stored(kept)).deletedAt).toBeNull();
      expect(await held()).toContain((await stored(kept)).partnerAccountId);
    }
    t.partners.simulator.clearFaults();
    ok(await remove(user.secret, kept), 204);
    expect((await stored(kept)).deletedAt).not.toBeNull();
    expect(await held()).toEqual(await partnerIds(goneThere));

    // Removed at the partner already (the partner answers 404): what was asked for holds.
    const [partnerAccountId] = await partnerIds(goneThere);
    await alfredpay("DELETE", `/fiatAccounts/${customerId}/${partnerAccountId}`);
    ok(await remove(user.secret, goneThere), 204);
    expect((await stored(goneThere)).deletedAt).not.toBeNull();
    expect(ok(await list(user.secret, "?country=MX"))).toEqual([]);
  });
});

describe("owner scoping and deletion", () => {
  it("another profile's account is 404 and untouched, an id that is no UUID 400; a deleted account is neither listed nor deletable again", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    await customers(owner.secret, "US");
    const { fiatAccountId } = ok(await create(owner.secret, US_ACH), 200);

    expect(ok(await list(stranger.secret), 200)).toEqual([]);
    expectError(
      await t.request("DELETE", `/v1/domestic/fiatAccounts/${fiatAccountId}`, { headers: stranger.secret }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await t.request("DELETE", "/v1/domestic/fiatAccounts/not-a-uuid", { headers: owner.secret }),
      400,
      "VALIDATION_FAILED",
      "fiatAccountId",
    );
    expect(ok(await list(owner.secret), 200)).toHaveLength(1);

    const { partnerCustomerId, partnerAccountId } = await stored(fiatAccountId);
    expect((await atPartner(partnerCustomerId!)).map((account) => account.fiatAccountId)).toEqual([partnerAccountId]);
    ok(await t.request("DELETE", `/v1/mx/fiatAccounts/${fiatAccountId}`, { headers: owner.session }), 204);
    expect(ok(await list(owner.secret), 200)).toEqual([]);
    expect(await atPartner(partnerCustomerId!)).toEqual([]);
    expectError(
      await t.request("DELETE", `/v1/domestic/fiatAccounts/${fiatAccountId}`, { headers: owner.secret }),
      404,
      "NOT_FOUND",
    );
    expect((await t.app.db.fiatAccount.findUniqueOrThrow({ where: { id: fiatAccountId } })).deletedAt).not.toBeNull();
  });
});

describe("delegation", () => {
  async function managerWithChild(allowedCorridors: Corridor[], customerType: CustomerType = "individual") {
    const manager = await newUser();
    const put = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors, isActive: true },
    });
    expect([200, 201]).toContain(put.status);
    const created = ok(
      await t.request("POST", "/v1/managed-profiles", {
        headers: manager.secret,
        body: {
          externalSubjectId: `subject-${randomUUID()}`,
          contactEmail: `child-${randomUUID()}@example.com`,
          customerType,
        },
      }),
      201,
    );
    const childId: string = created.managedProfile.profileId;
    const key = ok(
      await t.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, {
        headers: manager.secret,
        body: { name: "child's own" },
      }),
      201,
    );
    rememberSecret(key.secretKey);
    return {
      manager,
      childId,
      selecting: { ...manager.secret, "x-managed-profile-id": childId },
      own: { "x-api-key": key.secretKey as string },
    };
  }

  it("a manager creates, lists and deletes a child's accounts through the selector; the child sees them with its own key", async () => {
    const { manager, selecting, own } = await managerWithChild(["MX", "US"]);
    await customers(selecting, "MX", "US");
    const { fiatAccountId } = ok(await create(selecting, MX_SPEI), 200);
    ok(await create(own, US_ACH), 200);
    expect(ok(await list(own, "?country=MX"), 200).map((account: any) => account.fiatAccountId)).toEqual([
      fiatAccountId,
    ]);
    expect(ok(await list(selecting, "?country=US"), 200)).toHaveLength(1);
    // The manager's own accounts are its own.
    expect(ok(await list(manager.secret, "?country=MX"), 200)).toEqual([]);
    expectError(
      await t.request("DELETE", `/v1/domestic/fiatAccounts/${fiatAccountId}`, { headers: manager.secret }),
      404,
      "NOT_FOUND",
    );
    ok(await t.request("DELETE", `/v1/domestic/fiatAccounts/${fiatAccountId}`, { headers: selecting }), 204);
  });

  it("checks the corridor against the manager's current policy on creation and deletion, not on listing", async () => {
    const { manager, selecting, own, childId } = await managerWithChild(["MX", "US"]);
    await customers(own, "MX");
    const { fiatAccountId } = ok(await create(selecting, MX_SPEI), 200);
    const before = await accountCount();
    expectError(await create(selecting, AR_COELSA), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    expectError(await create(own, AR_COELSA), 403, "MANAGED_PROFILE_ACCESS_DENIED");

    const tightened = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["US"], isActive: true },
    });
    expect(tightened.status).toBe(200);
    expectError(await create(selecting, MX_SPEI), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    expectError(
      await t.request("DELETE", `/v1/domestic/fiatAccounts/${fiatAccountId}`, { headers: own }),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(ok(await list(selecting, "?country=MX"), 200)).toHaveLength(1);
    expect(await accountCount()).toBe(before);
    expectError(
      await create({ ...own, "x-managed-profile-id": childId }, US_ACH),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expectError(
      await create({ ...manager.secret, "x-managed-profile-id": "nope" }, US_ACH),
      400,
      "INVALID_MANAGED_PROFILE_ID",
    );
  });
});

describe("SELL ramps pay out to a fiat account of the same subject and corridor", () => {
  async function sellQuote(headers: Headers): Promise<string> {
    return ok(await t.request("POST", "/v1/quotes", { headers, body: MX_SELL }), 201).id;
  }
  const register = (headers: Headers, quoteId: string, fiatAccountId?: string) =>
    t.request("POST", "/v1/ramp/register", {
      headers,
      body: { quoteId, additionalData: { walletAddress: WALLET }, ...(fiatAccountId && { fiatAccountId }) },
    });

  it("requires one of the subject's usable accounts in the quote's corridor", async () => {
    const user = await newUser();
    const stranger = await newUser();
    // Approved in MX: only the payout account decides here.
    await t.completeKyc(user.secret, ["MX"]);
    await customers(user.secret, "US");
    await customers(stranger.secret, "MX");
    const mx = ok(await create(user.secret, MX_SPEI), 200).fiatAccountId;
    const us = ok(await create(user.secret, US_ACH), 200).fiatAccountId;
    const strangers = ok(await create(stranger.secret, MX_SPEI), 200).fiatAccountId;
    const deleted = ok(await create(user.secret, MX_SPEI), 200).fiatAccountId;
    ok(await t.request("DELETE", `/v1/domestic/fiatAccounts/${deleted}`, { headers: user.secret }), 204);
    const quoteId = await sellQuote(user.secret);

    const missing = await register(user.secret, quoteId);
    expectError(missing, 400, "VALIDATION_FAILED");
    expect(missing.body.error.details).toEqual([
      { field: "fiatAccountId", message: "is required for a SELL ramp in MX: the account the payout goes to" },
    ]);
    const wrongCountry = await register(user.secret, quoteId, us);
    expectError(wrongCountry, 400, "VALIDATION_FAILED");
    expect(wrongCountry.body.error.details).toEqual([
      { field: "fiatAccountId", message: "is an account in US; this ramp pays out in MX" },
    ]);
    expectError(await register(user.secret, quoteId, strangers), 404, "NOT_FOUND");
    expectError(await register(user.secret, quoteId, deleted), 404, "NOT_FOUND");
    expect(await t.app.db.ramp.count({ where: { quoteId } })).toBe(0);

    const ramp = ok(await register(user.secret, quoteId, mx), 201);
    expect(ramp.fiatAccountId).toBe(mx);
    // What a partner's offramp will name: the partner's customer and account, which the wire never shows.
    const { partnerCustomerId, partnerAccountId } = await stored(mx);
    expect(await t.app.fiatAccounts.payoutAccount(user.profileId, mx, "MX")).toEqual({
      fiatAccountId: mx,
      partnerCustomerId,
      partnerAccountId,
    });
    expect(await atPartner(partnerCustomerId!)).toContainEqual(
      expect.objectContaining({ fiatAccountId: partnerAccountId }),
    );
    // The database holds it too: a ramp cannot name an account that does not exist, nor lose the one it names.
    await expect(
      t.app.db.ramp.update({ where: { id: ramp.id }, data: { fiatAccountId: randomUUID() } }),
    ).rejects.toThrow(/foreign key/i);
    await expect(t.app.db.fiatAccount.delete({ where: { id: mx } })).rejects.toThrow(/foreign key/i);
    expect((await t.app.db.ramp.findUniqueOrThrow({ where: { id: ramp.id } })).fiatAccountId).toBe(mx);
  });

  it("refuses a fiat account where the payout goes by the quote's rail", async () => {
    const user = await newUser();
    await t.completeKyc(user.secret, ["MX"]);
    const mx = ok(await create(user.secret, MX_SPEI), 200).fiatAccountId;
    const buy = ok(
      await t.request("POST", "/v1/quotes", {
        headers: user.secret,
        body: {
          rampType: "BUY",
          from: "spei",
          to: "polygon",
          inputAmount: "1000",
          inputCurrency: "MXN",
          outputCurrency: "USDC",
        },
      }),
      201,
    ).id;
    const response = await t.request("POST", "/v1/ramp/register", {
      headers: user.secret,
      body: { quoteId: buy, destinationAddress: WALLET, fiatAccountId: mx },
    });
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual([{ field: "fiatAccountId", message: "is only for SELL ramps" }]);
  });
});

describe("GraphQL", () => {
  const FIELDS =
    "fiatAccountId customerId country type accountNumber accountName accountType routingNumber accountBankCode createdAt";

  it("creates, pages through and deletes accounts as REST does, and reports validation per field", async () => {
    const user = await newUser();
    await customers(user.secret, "US");
    const created: { fiatAccountId: string }[] = [];
    for (const accountNumber of ["111122223333", "444455556666", "777788889999"]) {
      const body = (
        await t.graphql(
          `mutation ($input: CreateFiatAccountInput!) { createFiatAccount(input: $input) { fiatAccount { ${FIELDS} } } }`,
          { input: { ...US_ACH, accountType: "CHECKING", accountNumber } },
          user.secret,
        )
      ).body;
      expect(body.errors).toBeUndefined();
      created.push(body.data.createFiatAccount.fiatAccount);
    }
    expect(created[0]).toMatchObject({
      country: "US",
      type: "ACH",
      accountNumber: "****3333",
      accountType: "CHECKING",
      routingNumber: "021000021",
      accountBankCode: null,
    });
    expect(ok(await list(user.secret), 200).map((account: any) => account.fiatAccountId)).toEqual(
      created.map((account) => account.fiatAccountId).reverse(),
    );

    const PAGE =
      "query ($after: String) { fiatAccounts(country: US, first: 2, after: $after) { count pageInfo { hasNextPage endCursor } edges { node { fiatAccountId } } } }";
    const first = (await t.graphql(PAGE, {}, user.secret)).body.data.fiatAccounts;
    expect([first.count, first.pageInfo.hasNextPage]).toEqual([2, true]);
    const second = (await t.graphql(PAGE, { after: first.pageInfo.endCursor }, user.secret)).body.data.fiatAccounts;
    expect([second.count, second.pageInfo.hasNextPage, second.edges[0].node.fiatAccountId]).toEqual([
      1,
      false,
      created[0].fiatAccountId,
    ]);

    const invalid = (
      await t.graphql(
        "mutation ($input: CreateFiatAccountInput!) { createFiatAccount(input: $input) { fiatAccount { fiatAccountId } } }",
        { input: { ...MX_SPEI, accountNumber: "032180000118359710" } },
        user.secret,
      )
    ).body;
    expect(invalid.errors[0].extensions.code).toBe("VALIDATION_FAILED");
    expect(invalid.errors[0].extensions.details.map((detail: { field: string }) => detail.field)).toEqual([
      "accountNumber",
    ]);

    const DELETE = "mutation ($id: ID!) { deleteFiatAccount(fiatAccountId: $id) { deletedFiatAccountId } }";
    expect((await t.graphql(DELETE, { id: created[1].fiatAccountId }, user.secret)).body.data).toEqual({
      deleteFiatAccount: { deletedFiatAccountId: created[1].fiatAccountId },
    });
    expect(
      (await t.graphql(DELETE, { id: created[1].fiatAccountId }, user.secret)).body.errors[0].extensions.code,
    ).toBe("NOT_FOUND");
    expect(ok(await list(user.secret), 200)).toHaveLength(2);
  });
});
