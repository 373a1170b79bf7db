import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError, expectPagedList, newestFirst, ok, seedTimes } from "../support/kit.js";

/**
 * Payout fiat accounts over REST (CONTRACT.md, KYC/KYB and fiat accounts; issue 6): creation with the
 * country from the path alias, the query or the body, field-level validation, owner scoping and soft
 * deletion, delegation with the corridor check, and SELL ramps paying out to an account of the same
 * subject and corridor, on the project's engine.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    { RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" },
    { workers: true },
  );
});
afterAll(() => t?.close());

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

    ok(await t.request("DELETE", `/v1/mx/fiatAccounts/${fiatAccountId}`, { headers: owner.session }), 204);
    expect(ok(await list(owner.secret), 200)).toEqual([]);
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
