import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestHash } from "../../src/idempotency/service.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { randomCpf } from "../support/kyc.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError, waitFor } from "../support/kit.js";

/**
 * `POST /v1/brl/kyc/import-token` (CONTRACT.md, KYC/KYB and fiat accounts; issue 6): authentication,
 * direct-child rejection and delegation before any Idempotency-Key or body validation, the strict 16 KB
 * body with no identity selector, and the Idempotency-Key semantics (replay, 422 on another body, 409 while
 * the first request runs), under concurrency, on the project's engine. The KYC reconciler runs only while a test
 * waits for the partner's decision (followingKyc): the cases the other tests compare stay as their requests left them.
 */

const PATH = "/v1/brl/kyc/import-token";
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

/** A share token: a secret, so the log audit fails should it ever be logged. */
function shareToken(): string {
  const token = `_act-sbx-${randomUUID()}`;
  rememberSecret(token);
  return token;
}

const importing = (headers: Headers, key: string | undefined, body: unknown, path = PATH) =>
  t.request("POST", path, { headers: { ...headers, ...(key !== undefined && { "idempotency-key": key }) }, body });

async function userWithSubaccount(): Promise<{
  profileId: string;
  secret: Headers;
  session: Headers;
  publicKey: Headers;
}> {
  const session = await t.signIn();
  const credential = await t.createCredential(session.headers);
  const secret = { "x-api-key": credential.secretKey };
  const created = await t.request("POST", "/v1/brl/createSubaccount", {
    headers: secret,
    body: { accountType: "INDIVIDUAL", name: "Ana Souza", taxId: randomCpf() },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return {
    profileId: session.profileId,
    secret,
    session: session.headers,
    publicKey: { "x-public-key": credential.publicKey },
  };
}

/** A manager allowed BR, an individual child of it with a subaccount and a key of its own, and the selector. */
async function managerAndChild() {
  const manager = await userWithSubaccount();
  const put = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
    headers: t.operatorHeaders,
    body: { allowedCorridors: ["BR"], isActive: true },
  });
  expect(put.status).toBe(201);
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.secret,
    body: {
      externalSubjectId: `subject-${randomUUID()}`,
      contactEmail: `child-${randomUUID()}@example.com`,
      customerType: "individual",
    },
  });
  const childId: string = created.body.managedProfile.profileId;
  const key = await t.request("POST", `/v1/managed-profiles/${childId}/api-credentials`, {
    headers: manager.secret,
    body: { name: "child's own" },
  });
  rememberSecret(key.body.secretKey);
  const selecting = { ...manager.secret, "x-managed-profile-id": childId };
  const subaccount = await t.request("POST", "/v1/brl/createSubaccount", {
    headers: selecting,
    body: { accountType: "INDIVIDUAL", name: "Child", taxId: randomCpf() },
  });
  expect(subaccount.status, JSON.stringify(subaccount.body)).toBe(200);
  return { manager, childId, selecting, own: { "x-api-key": key.body.secretKey as string } };
}

const caseOf = (profileId: string) => t.app.db.kycCase.findFirstOrThrow({ where: { profileId, corridor: "BR" } });

const brKycStatus = async (headers: Headers) =>
  (await t.request("GET", "/v1/ramp-info", { headers })).body.corridors.BR.kycStatus;

/** The BR status once the partner's decision is observed (pending, to ramp-info, until then). */
const decidedBrKycStatus = (headers: Headers) =>
  t.followingKyc(() =>
    waitFor(
      () => brKycStatus(headers),
      (status) => status !== "pending",
      "the partner's decision",
    ),
  );

describe("importing a token", () => {
  it("answers 202 {attemptId, status: pending}, puts the case in review, and the decision follows", async () => {
    const user = await userWithSubaccount();
    const response = await importing(user.secret, randomUUID(), { importToken: shareToken(), consentAttested: true });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(Object.keys(response.body).sort()).toEqual(["attemptId", "status"]);
    expect(response.body.status).toBe("pending");
    const row = await caseOf(user.profileId);
    expect([row.method, row.submissionId, row.status]).toEqual(["token_import", response.body.attemptId, "in_review"]);
    expect(await brKycStatus(user.secret)).toBe("pending");
    expect(await decidedBrKycStatus(user.secret)).toBe("approved");
  });

  it("replays the first answer for the same key and body, and refuses another body under it with 422", async () => {
    const user = await userWithSubaccount();
    const key = randomUUID();
    const body = { importToken: shareToken(), consentAttested: true };
    const first = await importing(user.secret, key, body);
    expect(first.status).toBe(202);
    const before = await caseOf(user.profileId);
    // The same fields in another order are the same body.
    const again = await importing(user.session, key, { consentAttested: true, importToken: body.importToken });
    expect([again.status, again.body]).toEqual([202, first.body]);
    expectError(
      await importing(user.secret, key, { importToken: shareToken(), consentAttested: true }),
      422,
      "IDEMPOTENCY_KEY_MISMATCH",
    );
    expect(await caseOf(user.profileId)).toEqual(before);
    // A new key is a new request: the case is no longer open for one.
    expectError(await importing(user.secret, randomUUID(), body), 400, "VALIDATION_FAILED");
  });

  it("answers 409 while the first request under the key is still running", async () => {
    const user = await userWithSubaccount();
    const key = randomUUID();
    const body = { importToken: shareToken(), consentAttested: true };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first request, held open: the same scope and key the route uses for this caller.
    const first = t.app.idempotency.run(
      `brl-kyc-import-token:${user.profileId}:${user.profileId}`,
      key,
      requestHash(body),
      async () => {
        await held;
        return { status: 202, body: { attemptId: "held", status: "pending" } };
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expectError(await importing(user.secret, key, body), 409, "IDEMPOTENCY_KEY_IN_USE");
    release();
    await first;
    expect((await importing(user.secret, key, body)).body).toEqual({ attemptId: "held", status: "pending" });
  });

  it("fences a claim taken over after it was abandoned: its first holder can neither finish nor release it", async () => {
    const key = randomUUID();
    const hash = requestHash({ the: "body" });
    /** A request under `scope` and the key, held until released; then it answers `answer`, or fails unexpectedly. */
    const holding = (scope: string, answer: string | Error) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const running = t.app.idempotency.run(scope, key, hash, async () => {
        await held;
        if (answer instanceof Error) throw answer;
        return { status: 200, body: { answer } };
      });
      return { release, running };
    };
    /** As if the holder's process had died a minute ago: its claim counts as abandoned. */
    const abandon = async (scope: string) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.app.db.idempotencyRecord.updateMany({
        where: { scope },
        data: { lockedUntil: new Date(Date.now() - 1) },
      });
    };

    // The first holder outlives its claim and finishes while the request that took it over still runs: the
    // key keeps the answer of the one that holds it.
    const finishing = `fencing:${randomUUID()}`;
    const first = holding(finishing, "first");
    await abandon(finishing);
    const second = holding(finishing, "second");
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.release();
    expect((await first.running).body).toEqual({ answer: "first" });
    second.release();
    expect((await second.running).body).toEqual({ answer: "second" });
    const record = await t.app.db.idempotencyRecord.findFirstOrThrow({ where: { scope: finishing } });
    expect(JSON.parse(record.responseBody!)).toMatchObject({ body: { answer: "second" } });

    // A first holder that fails after the takeover leaves the claim of the one that took it over in place.
    const releasing = `fencing:${randomUUID()}`;
    const failing = holding(releasing, new Error("the first holder failed"));
    await abandon(releasing);
    const takeover = holding(releasing, "takeover");
    await new Promise((resolve) => setTimeout(resolve, 50));
    failing.release();
    await expect(failing.running).rejects.toThrow("the first holder failed");
    expect(await t.app.db.idempotencyRecord.count({ where: { scope: releasing, state: "in_flight" } })).toBe(1);
    takeover.release();
    expect((await takeover.running).body).toEqual({ answer: "takeover" });
  });

  it("lets one of many concurrent identical requests through; the others replay it or wait their turn", async () => {
    const user = await userWithSubaccount();
    const key = randomUUID();
    const body = { importToken: shareToken(), consentAttested: true };
    const responses = await Promise.all(Array.from({ length: 12 }, () => importing(user.secret, key, body)));
    const accepted = responses.filter((response) => response.status === 202);
    expect(accepted.length).toBeGreaterThan(0);
    expect(new Set(accepted.map((response) => response.body.attemptId)).size).toBe(1);
    for (const response of responses.filter((candidate) => candidate.status !== 202))
      expectError(response, 409, "IDEMPOTENCY_KEY_IN_USE");
    expect((await caseOf(user.profileId)).submissionId).toBe(accepted[0]!.body.attemptId);
    expect(await t.app.db.idempotencyRecord.count({ where: { key } })).toBe(1);
  });

  it("stores a refusal too: the same key answers it again, a new key tries afresh", async () => {
    const session = await t.signIn();
    const secret = { "x-api-key": (await t.createCredential(session.headers)).secretKey };
    const key = randomUUID();
    const body = { importToken: shareToken(), consentAttested: true };
    expectError(await importing(secret, key, body), 404, "NOT_FOUND");
    expect(
      (
        await t.request("POST", "/v1/brl/createSubaccount", {
          headers: secret,
          body: { accountType: "INDIVIDUAL", name: "Ana", taxId: randomCpf() },
        })
      ).status,
    ).toBe(200);
    expectError(await importing(secret, key, body), 404, "NOT_FOUND");
    expect((await importing(secret, randomUUID(), body)).status).toBe(202);
  });
});

describe("request checks", () => {
  it("requires a well-formed Idempotency-Key", async () => {
    const user = await userWithSubaccount();
    const body = { importToken: shareToken(), consentAttested: true };
    for (const key of [undefined, "", "x".repeat(129), "has space", "ключ"]) {
      expectError(await importing(user.secret, key, body), 400, "IDEMPOTENCY_KEY_REQUIRED");
    }
    expect((await importing(user.secret, "k".repeat(128), body)).status).toBe(202);
  });

  it("takes exactly {importToken, consentAttested: true}, no selector in body or query, at most 16 KB", async () => {
    const user = await userWithSubaccount();
    const token = shareToken();
    const before = await caseOf(user.profileId);
    for (const [body, field] of [
      [{ importToken: token }, "consentAttested"],
      [{ importToken: token, consentAttested: false }, "consentAttested"],
      [{ importToken: "", consentAttested: true }, "importToken"],
      [{ importToken: "é".repeat(513), consentAttested: true }, "importToken"],
      [{ importToken: token, consentAttested: true, profileId: user.profileId }, "(body)"],
      [{ importToken: token, consentAttested: true, taxId: "12345678909" }, "(body)"],
    ] as const) {
      const response = await importing(user.secret, randomUUID(), body);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(
        response.body.error.details.map((detail: { field: string }) => detail.field),
        JSON.stringify(response.body),
      ).toContain(field);
    }
    const queried = await importing(
      user.secret,
      randomUUID(),
      { importToken: token, consentAttested: true },
      `${PATH}?userId=${user.profileId}`,
    );
    expectError(queried, 400, "VALIDATION_FAILED");
    expect(queried.body.error.details).toEqual([
      { field: "userId", message: "is not accepted: the subject comes from the credential" },
    ]);
    expectError(
      await importing(user.secret, randomUUID(), { importToken: "a".repeat(17 * 1024), consentAttested: true }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    expect(await caseOf(user.profileId)).toEqual(before);
    expect(await t.app.db.idempotencyRecord.count({ where: { scope: { contains: user.profileId } } })).toBe(0);
  });
});

describe("who may import", () => {
  it("refuses callers before looking at the key or the body", async () => {
    const { manager, childId, own } = await managerAndChild();
    const bad = { importToken: 42 };
    expectError(await importing({}, undefined, bad), 401, "AUTHENTICATION_REQUIRED");
    expectError(await importing({ "x-api-key": "sk_test_short" }, undefined, bad), 401, "INVALID_SECRET_KEY");
    expectError(await importing(manager.publicKey, undefined, bad), 403, "FORBIDDEN");
    // A child's own credential, with or without the selector.
    expectError(await importing(own, undefined, bad), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    expectError(
      await importing({ ...own, "x-managed-profile-id": childId }, undefined, bad),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expectError(
      await importing({ ...manager.secret, "x-managed-profile-id": "not-a-uuid" }, undefined, bad),
      400,
      "INVALID_MANAGED_PROFILE_ID",
    );
    expectError(
      await importing({ ...manager.secret, "x-managed-profile-id": randomUUID() }, undefined, bad),
      403,
      "MANAGED_PROFILE_ACCESS_DENIED",
    );
    expect(await t.app.db.idempotencyRecord.count({ where: { scope: { contains: childId } } })).toBe(0);
  });

  it("checks the manager's corridor policy and the child's customer type before the key and the body", async () => {
    const { manager, childId, selecting } = await managerAndChild();
    const bad = { importToken: 42 };
    // The policy no longer allows BR: refused as such, whatever the key and the body.
    const put = await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["MX"], isActive: true },
    });
    expect(put.status).toBe(200);
    for (const path of [PATH, "/v1/brla/kyc/import-token", `${PATH}?userId=${childId}`]) {
      expectError(await importing(selecting, undefined, bad, path), 403, "MANAGED_PROFILE_ACCESS_DENIED");
    }
    const before = await caseOf(childId);

    // A business child: the import is for individuals, so it is refused before anything is looked up.
    const business = await t.request("POST", "/v1/managed-profiles", {
      headers: manager.secret,
      body: {
        externalSubjectId: `subject-${randomUUID()}`,
        contactEmail: `b-${randomUUID()}@example.com`,
        customerType: "business",
      },
    });
    expect(business.status, JSON.stringify(business.body)).toBe(201);
    await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR"], isActive: true },
    });
    const selectingBusiness = { ...manager.secret, "x-managed-profile-id": business.body.managedProfile.profileId };
    expectError(await importing(selectingBusiness, undefined, bad), 400, "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH");
    expectError(
      await importing(selectingBusiness, randomUUID(), { importToken: shareToken(), consentAttested: true }),
      400,
      "MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH",
    );
    expect(await caseOf(childId)).toEqual(before);
    expect(await t.app.db.idempotencyRecord.count({ where: { scope: { contains: manager.profileId } } })).toBe(0);
  });

  it("lets the manager import for its child with its secret key or session and the selector", async () => {
    const { manager, childId, selecting } = await managerAndChild();
    const response = await importing(selecting, randomUUID(), { importToken: shareToken(), consentAttested: true });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect((await caseOf(childId)).submissionId).toBe(response.body.attemptId);
    // The manager's own case is untouched; its session works for another child's import too.
    expect((await caseOf(manager.profileId)).status).toBe("not_started");
    const second = await managerAndChild();
    const bySession = await importing(
      { ...second.manager.session, "x-managed-profile-id": second.childId },
      randomUUID(),
      { importToken: shareToken(), consentAttested: true },
    );
    expect(bySession.status, JSON.stringify(bySession.body)).toBe(202);
  });
});

describe("over GraphQL", () => {
  const IMPORT =
    "mutation ($input: ImportBrazilKycTokenInput!, $key: String!) { importBrazilKycToken(input: $input, idempotencyKey: $key) { attemptId status } }";
  const importingOverGraphQL = async (headers: Headers, key: unknown, input: unknown) =>
    (await t.graphql(IMPORT, { input, key }, headers)).body;
  const codeOf = (body: any) => body.errors?.[0]?.extensions?.code;

  it("imports into the caller's subaccount: in review at once, approved after, as over REST", async () => {
    const user = await userWithSubaccount();
    const answer = await importingOverGraphQL(user.session, randomUUID(), {
      importToken: shareToken(),
      consentAttested: true,
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.importBrazilKycToken.status).toBe("PENDING");
    const row = await caseOf(user.profileId);
    expect([row.method, row.submissionId, row.status]).toEqual([
      "token_import",
      answer.data.importBrazilKycToken.attemptId,
      "in_review",
    ]);
    expect(await brKycStatus(user.secret)).toBe("pending");
    expect(await decidedBrKycStatus(user.secret)).toBe("approved");
  });

  it("shares REST's idempotency keys: the same key and input replay, another input is 422, on either face", async () => {
    const user = await userWithSubaccount();
    const key = randomUUID();
    const input = { importToken: shareToken(), consentAttested: true };
    const first = await importingOverGraphQL(user.secret, key, input);
    expect(first.errors).toBeUndefined();
    const before = await caseOf(user.profileId);
    expect((await importingOverGraphQL(user.session, key, input)).data).toEqual(first.data);
    const overRest = await importing(user.secret, key, { consentAttested: true, importToken: input.importToken });
    expect([overRest.status, overRest.body]).toEqual([202, { ...first.data.importBrazilKycToken, status: "pending" }]);
    const other = { importToken: shareToken(), consentAttested: true };
    const mismatch = await importingOverGraphQL(user.secret, key, other);
    expect(mismatch.errors[0].extensions).toMatchObject({ code: "IDEMPOTENCY_KEY_MISMATCH", status: 422 });
    expect(mismatch.data).toBeNull();
    expectError(await importing(user.secret, key, other), 422, "IDEMPOTENCY_KEY_MISMATCH");
    expect(await caseOf(user.profileId)).toEqual(before);
  });

  it("checks the idempotency key as REST checks the header, and the input as REST checks the body", async () => {
    const user = await userWithSubaccount();
    const input = { importToken: shareToken(), consentAttested: true };
    for (const key of ["", "x".repeat(129), "has space", "ключ"]) {
      expect(codeOf(await importingOverGraphQL(user.secret, key, input)), key).toBe("IDEMPOTENCY_KEY_REQUIRED");
    }
    expect(codeOf(await importingOverGraphQL(user.secret, undefined, input))).toBe("VALIDATION_FAILED");
    for (const [bad, field] of [
      [{ importToken: input.importToken, consentAttested: false }, "consentAttested"],
      [{ importToken: "", consentAttested: true }, "importToken"],
      [{ importToken: "é".repeat(513), consentAttested: true }, "importToken"],
    ] as const) {
      const refused = await importingOverGraphQL(user.secret, randomUUID(), bad);
      expect(refused.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
      expect(refused.errors[0].extensions.details.map((detail: { field: string }) => detail.field)).toContain(field);
    }
    expect((await caseOf(user.profileId)).status).toBe("not_started");
    expect(codeOf(await importingOverGraphQL(user.secret, "k".repeat(128), input))).toBeUndefined();
  });

  it("refuses a child's own key and a corridor its manager no longer allows before looking at the key", async () => {
    const { manager, childId, selecting, own } = await managerAndChild();
    const put = (allowedCorridors: string[]) =>
      t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors, isActive: true },
      });
    const input = { importToken: shareToken(), consentAttested: true };

    expect(codeOf(await importingOverGraphQL(own, "", input))).toBe("MANAGED_PROFILE_ACCESS_DENIED");
    expect(codeOf(await importingOverGraphQL(manager.publicKey, "", input))).toBe("FORBIDDEN");
    expect((await put(["MX"])).status).toBe(200);
    expect(codeOf(await importingOverGraphQL(selecting, "", input))).toBe("MANAGED_PROFILE_ACCESS_DENIED");
    expect(await t.app.db.idempotencyRecord.count({ where: { scope: { contains: childId } } })).toBe(0);

    // Allowed again: the manager imports for its child through the selector.
    expect((await put(["BR"])).status).toBe(200);
    const imported = await importingOverGraphQL(selecting, randomUUID(), input);
    expect(imported.errors).toBeUndefined();
    expect((await caseOf(childId)).submissionId).toBe(imported.data.importBrazilKycToken.attemptId);
  });
});
