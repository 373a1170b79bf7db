import { createHash, randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { insideOneRateLimitWindow } from "../support/kit.js";
import { rememberSecret } from "../support/secrets.js";

// CONTRACT.md, Identity: email OTP sign-in, rotating refresh-token sessions and access tokens, over REST and GraphQL.

let t: TestApp;
beforeAll(async () => {
  // Many sign-ins come from one address here; the per-IP OTP limit is exercised on its own app below.
  t = await startTestApp({ RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

let emails = 0;
const newEmail = (label = "user") => `${label}-${++emails}-${randomUUID().slice(0, 8)}@example.com`;

/** A six-digit code that differs from `code` (so a "wrong" guess is never accidentally right). */
const wrongCode = (code: string, offset = 1) => String((Number(code) + offset) % 1_000_000).padStart(6, "0");

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

function expectRestError(response: HttpResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error).toMatchObject({ code, status });
  expect(typeof response.body.error.message).toBe("string");
  expect(typeof response.body.error.requestId).toBe("string");
}

function expectGraphQLError(response: HttpResponse, code: string, status: number) {
  expect(response.body.errors, JSON.stringify(response.body)).toBeDefined();
  expect(response.body.errors[0].extensions).toMatchObject({ code, status });
}

async function requestOtp(app: TestApp, email: string): Promise<string> {
  const requested = await app.request("POST", "/v1/auth/request-otp", { body: { email } });
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  return app.smtp.nextCode(email);
}

function verifyOtp(app: TestApp, email: string, token: string) {
  return app.request("POST", "/v1/auth/verify-otp", { body: { email, token } });
}

/** Remembers every issued secret of a session response (REST snake_case or GraphQL camelCase). */
function rememberSession<T extends Record<string, any>>(body: T): T {
  for (const key of ["access_token", "refresh_token", "accessToken", "refreshToken"]) {
    if (typeof body?.[key] === "string") rememberSecret(body[key]);
  }
  return body;
}

/** Signs in through REST, asserting success; returns the raw verify-otp body. */
async function signInRest(app: TestApp, email: string) {
  const code = await requestOtp(app, email);
  const verified = await verifyOtp(app, email, code);
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return rememberSession(verified.body) as {
    success: true;
    access_token: string;
    refresh_token: string;
    user_id: string;
    token_type: string;
    expires_in: number;
  };
}

function refresh(app: TestApp, refreshToken: string) {
  return app.request("POST", "/v1/auth/refresh", { body: { refresh_token: refreshToken } }).then((response) => {
    if (response.status === 200) rememberSession(response.body);
    return response;
  });
}

const listCredentials = (app: TestApp, accessToken: string) =>
  app.request("GET", "/v1/api-credentials", { headers: { authorization: `Bearer ${accessToken}` } });

describe("POST /v1/auth/request-otp", () => {
  it("answers 200 {success: true, message} and mails a 6-digit code valid for 10 minutes", async () => {
    const email = newEmail();
    const before = Date.now();
    const requested = await t.request("POST", "/v1/auth/request-otp", { body: { email, locale: "en" } });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({ success: true, message: expect.any(String) });
    expect(requested.body.message.length).toBeGreaterThan(0);
    const code = await t.smtp.nextCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const row = await t.app.db.otpChallenge.findUniqueOrThrow({ where: { email } });
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 1000);
  });

  it("stores the challenge without the plain code", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    const row = await t.app.db.otpChallenge.findUniqueOrThrow({ where: { email } });
    expect(row.codeHash).not.toBe(code);
    expect(JSON.stringify(row)).not.toContain(code);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(code);
  });

  it("normalizes the email: trimmed and lower-cased addresses are one user", async () => {
    const local = `Mixed-${randomUUID().slice(0, 8)}`;
    const normalized = `${local.toLowerCase()}@example.com`;
    const decorated = `  ${local.toUpperCase()}@Example.COM  `;
    const first = await signInRest(t, decorated);
    // The challenge and the profile are keyed by the normalized address.
    expect(await t.app.db.otpChallenge.findUnique({ where: { email: normalized } })).not.toBeNull();
    const profile = await t.app.db.profile.findUniqueOrThrow({ where: { email: normalized } });
    expect(profile.id).toBe(first.user_id);
    const second = await signInRest(t, normalized);
    expect(second.user_id).toBe(first.user_id);
    expect(await t.app.db.profile.count({ where: { email: { contains: local.toLowerCase() } } })).toBe(1);
  });

  it("rejects a missing or invalid email with 400 VALIDATION_FAILED naming `email`", async () => {
    for (const body of [
      {},
      { email: "" },
      { email: "not-an-email" },
      { email: "a@" },
      { email: 42 },
      { email: "   " },
    ]) {
      const response = await t.request("POST", "/v1/auth/request-otp", { body });
      expectRestError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details, JSON.stringify(body)).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: "email", message: expect.any(String) })]),
      );
    }
  });

  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const response = await t.request("POST", "/v1/auth/request-otp", { rawBody: '{"email": ' });
    expectRestError(response, 400, "INVALID_JSON");
  });
});

describe("POST /v1/auth/verify-otp", () => {
  it("answers 200 with the session and creates the profile on first sign-in only", async () => {
    const email = newEmail();
    expect(await t.app.db.profile.findUnique({ where: { email } })).toBeNull();
    const code = await requestOtp(t, email);
    const verified = await verifyOtp(t, email, code);
    expect(verified.status).toBe(200);
    rememberSession(verified.body);
    expect(verified.body).toEqual({
      success: true,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      user_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      token_type: "bearer",
      expires_in: 900,
    });
    const profile = await t.app.db.profile.findUniqueOrThrow({ where: { email } });
    expect(profile.id).toBe(verified.body.user_id);

    const again = await signInRest(t, email);
    expect(again.user_id).toBe(verified.body.user_id);
    expect(again.refresh_token).not.toBe(verified.body.refresh_token);
    expect(again.access_token).not.toBe(verified.body.access_token);
    expect(await t.app.db.profile.count({ where: { email } })).toBe(1);
    // The session works.
    expect((await listCredentials(t, again.access_token)).status).toBe(200);
  });

  it("rejects a missing email or token with 400 VALIDATION_FAILED naming the field", async () => {
    const noEmail = await t.request("POST", "/v1/auth/verify-otp", { body: { token: "123456" } });
    expectRestError(noEmail, 400, "VALIDATION_FAILED");
    expect(noEmail.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: "email" })]));
    const noToken = await t.request("POST", "/v1/auth/verify-otp", { body: { email: newEmail() } });
    expectRestError(noToken, 400, "VALIDATION_FAILED");
    expect(noToken.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: "token" })]));
  });

  it("rejects a wrong code with 400 INVALID_OTP and still accepts the right one afterwards", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    const wrong = await verifyOtp(t, email, wrongCode(code));
    expectRestError(wrong, 400, "INVALID_OTP");
    expect(wrong.body).not.toHaveProperty("access_token");
    const right = await verifyOtp(t, email, code);
    expect(right.status).toBe(200);
    rememberSession(right.body);
  });

  it("rejects a code for an email that never asked for one with INVALID_OTP", async () => {
    const response = await verifyOtp(t, newEmail(), "123456");
    expectRestError(response, 400, "INVALID_OTP");
  });

  it("after 5 wrong codes refuses even the right code with 429 OTP_ATTEMPTS_EXCEEDED", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    for (let i = 1; i <= 5; i++) {
      const wrong = await verifyOtp(t, email, wrongCode(code, i));
      expectRestError(wrong, 400, "INVALID_OTP");
    }
    const right = await verifyOtp(t, email, code);
    expectRestError(right, 429, "OTP_ATTEMPTS_EXCEEDED");
    expect(right.body).not.toHaveProperty("access_token");
    const sixthWrong = await verifyOtp(t, email, wrongCode(code, 6));
    expectRestError(sixthWrong, 429, "OTP_ATTEMPTS_EXCEEDED");
    expect(await t.app.db.profile.findUnique({ where: { email } })).toBeNull();
    // A new code starts over.
    const fresh = await requestOtp(t, email);
    const verified = await verifyOtp(t, email, fresh);
    expect(verified.status).toBe(200);
    rememberSession(verified.body);
  });

  it("never counts more than 5 wrong attempts under 20 concurrent wrong guesses", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verifyOtp(t, email, wrongCode(code, i + 1))),
    );
    const codes = guesses.map((g) => g.body?.error?.code);
    expect(codes.filter((c) => c === "INVALID_OTP")).toHaveLength(5);
    expect(codes.filter((c) => c === "OTP_ATTEMPTS_EXCEEDED")).toHaveLength(15);
    for (const guess of guesses) expect([400, 429]).toContain(guess.status);
    const row = await t.app.db.otpChallenge.findUniqueOrThrow({ where: { email } });
    expect(row.failedAttempts).toBe(5);
    const right = await verifyOtp(t, email, code);
    expectRestError(right, 429, "OTP_ATTEMPTS_EXCEEDED");
  });

  it("rejects an expired code with INVALID_OTP", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    await t.app.db.otpChallenge.update({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await verifyOtp(t, email, code);
    expectRestError(response, 400, "INVALID_OTP");
    expect(await t.app.db.profile.findUnique({ where: { email } })).toBeNull();
  });

  it("accepts a code only once", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    const first = await verifyOtp(t, email, code);
    expect(first.status).toBe(200);
    rememberSession(first.body);
    const second = await verifyOtp(t, email, code);
    expectRestError(second, 400, "INVALID_OTP");
    expect(second.body).not.toHaveProperty("access_token");
  });

  it("lets exactly one of 10 concurrent verifications of the right code succeed", async () => {
    const email = newEmail();
    const code = await requestOtp(t, email);
    const results = await Promise.all(Array.from({ length: 10 }, () => verifyOtp(t, email, code)));
    const winners = results.filter((r) => r.status === 200);
    for (const winner of winners) rememberSession(winner.body);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expectRestError(loser, 400, "INVALID_OTP");
    const profile = await t.app.db.profile.findUniqueOrThrow({ where: { email } });
    expect(await t.app.db.sessionFamily.count({ where: { profileId: profile.id } })).toBe(1);
  });

  it("replaces the previous code when a new one is requested", async () => {
    const email = newEmail();
    let first = await requestOtp(t, email);
    let second = await requestOtp(t, email);
    while (second === first) {
      // One chance in a million; ask again so the two codes differ.
      first = second;
      second = await requestOtp(t, email);
    }
    expectRestError(await verifyOtp(t, email, first), 400, "INVALID_OTP");
    const verified = await verifyOtp(t, email, second);
    expect(verified.status).toBe(200);
    rememberSession(verified.body);
  });
});

describe("access tokens", () => {
  it("are HS256 JWTs with sub = profile id, iss, aud, exp 15 minutes and jti", async () => {
    const session = await signInRest(t, newEmail());
    const { header, payload } = jwt.decode(session.access_token, { complete: true }) as jwt.Jwt & {
      payload: jwt.JwtPayload;
    };
    expect(header.alg).toBe("HS256");
    // The signature is the app's own, under its secret and the pinned algorithm.
    const claims = jwt.verify(session.access_token, t.app.config.jwt.secret, {
      algorithms: ["HS256"],
    }) as jwt.JwtPayload;
    expect(claims).toEqual(payload);
    expect(claims.sub).toBe(session.user_id);
    expect(claims.iss).toBe(t.app.config.jwt.issuer);
    expect(claims.aud).toBe(t.app.config.jwt.audience);
    expect(typeof claims.iss).toBe("string");
    expect(claims.aud).toBeTruthy();
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims.jti!.length).toBeGreaterThan(0);
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(claims.exp!).toBeGreaterThanOrEqual(nowSeconds + 900 - 10);
    expect(claims.exp!).toBeLessThanOrEqual(nowSeconds + 900 + 2);
    // Each token has its own id.
    const other = await refresh(t, session.refresh_token);
    expect((jwt.decode(other.body.access_token) as jwt.JwtPayload).jti).not.toBe(claims.jti);
  });

  it("refuses forged, unsigned, misaddressed and expired tokens with 401 INVALID_BEARER_TOKEN", async () => {
    const session = await signInRest(t, newEmail());
    const { secret, issuer, audience } = t.app.config.jwt;
    const now = Math.floor(Date.now() / 1000);
    const sid = (jwt.decode(session.access_token) as jwt.JwtPayload).sid;
    const claims = {
      sub: session.user_id,
      sid,
      iss: issuer,
      aud: audience,
      iat: now,
      exp: now + 900,
      jti: randomUUID(),
    };
    const sign = (payload: object, key: string = secret, algorithm: jwt.Algorithm = "HS256") =>
      rememberSecret(jwt.sign(payload, key, { algorithm }));
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

    // Control: the forging method itself yields a token the app accepts, so the refusals below are about
    // the one property each case changes.
    const control = await listCredentials(t, sign(claims));
    expect(control.status).toBe(200);

    const forged: Record<string, string> = {
      "another secret": sign(claims, "another-secret-another-secret-another-secret"),
      'alg "none"': `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`,
      'alg "none" with the real signature': `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.${sign(claims).split(".")[2]}`,
      "another HMAC algorithm (HS512) with the real secret": sign(claims, secret, "HS512"),
      "wrong audience": sign({ ...claims, aud: "someone-else" }),
      "wrong issuer": sign({ ...claims, iss: "someone-else" }),
      expired: sign({ ...claims, iat: now - 1000, exp: now - 100 }),
      "tampered payload": (() => {
        const [head, , signature] = sign(claims).split(".");
        return `${head}.${b64({ ...claims, sub: randomUUID() })}.${signature}`;
      })(),
      "missing parts": sign(claims).split(".").slice(0, 2).join("."),
      garbage: "not-a-jwt",
    };
    for (const [name, token] of Object.entries(forged)) {
      const response = await listCredentials(t, token);
      expect(response.status, name).toBe(401);
      expect(response.body.error, name).toMatchObject({ code: "INVALID_BEARER_TOKEN", status: 401 });
    }
    // The genuine token still works.
    expect((await listCredentials(t, session.access_token)).status).toBe(200);
  });
});

describe("POST /v1/auth/refresh", () => {
  it("rotates: 200 with a new access and refresh token", async () => {
    const session = await signInRest(t, newEmail());
    const refreshed = await refresh(t, session.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({
      success: true,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 900,
    });
    expect(refreshed.body.refresh_token).not.toBe(session.refresh_token);
    expect(refreshed.body.access_token).not.toBe(session.access_token);
    expect((jwt.decode(refreshed.body.access_token) as jwt.JwtPayload).sub).toBe(session.user_id);
    expect((await listCredentials(t, refreshed.body.access_token)).status).toBe(200);
    // The new refresh token rotates in turn.
    const again = await refresh(t, refreshed.body.refresh_token);
    expect(again.status).toBe(200);
  });

  it("makes a refresh token single-use: presenting a spent one is 401 and revokes the whole family", async () => {
    const session = await signInRest(t, newEmail());
    const second = await refresh(t, session.refresh_token);
    expect(second.status).toBe(200);
    const third = await refresh(t, second.body.refresh_token);
    expect(third.status).toBe(200);

    const reuse = await refresh(t, session.refresh_token);
    expectRestError(reuse, 401, "AUTHENTICATION_REQUIRED");
    expect(reuse.body).not.toHaveProperty("access_token");
    // The newest token of the family is dead too.
    const newest = await refresh(t, third.body.refresh_token);
    expectRestError(newest, 401, "AUTHENTICATION_REQUIRED");
    const families = await t.app.db.sessionFamily.findMany({ where: { profileId: session.user_id } });
    expect(families).toHaveLength(1);
    expect(families[0]!.revokedAt).not.toBeNull();
  });

  it("a reused token revokes only its own family; another sign-in of the same user keeps working", async () => {
    const email = newEmail();
    const victim = await signInRest(t, email);
    const other = await signInRest(t, email);
    expect((await refresh(t, victim.refresh_token)).status).toBe(200);
    expectRestError(await refresh(t, victim.refresh_token), 401, "AUTHENTICATION_REQUIRED");
    expect((await refresh(t, other.refresh_token)).status).toBe(200);
  });

  it("lets at most one of 10 concurrent refreshes of one token succeed", async () => {
    const session = await signInRest(t, newEmail());
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(t, session.refresh_token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expectRestError(loser, 401, "AUTHENTICATION_REQUIRED");
  });

  it("refuses a garbage or expired token with 401, and a missing one with 400 naming refresh_token", async () => {
    expectRestError(await refresh(t, "garbage"), 401, "AUTHENTICATION_REQUIRED");
    expectRestError(await refresh(t, randomUUID()), 401, "AUTHENTICATION_REQUIRED");

    const session = await signInRest(t, newEmail());
    await t.app.db.refreshToken.updateMany({
      where: { family: { profileId: session.user_id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expectRestError(await refresh(t, session.refresh_token), 401, "AUTHENTICATION_REQUIRED");

    const missing = await t.request("POST", "/v1/auth/refresh", { body: {} });
    expectRestError(missing, 400, "VALIDATION_FAILED");
    expect(missing.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "refresh_token" })]),
    );
  });

  it("stores refresh tokens only hashed", async () => {
    const session = await signInRest(t, newEmail());
    const refreshed = await refresh(t, session.refresh_token);
    expect(refreshed.status).toBe(200);
    const rows = await t.app.db.refreshToken.findMany({ where: { family: { profileId: session.user_id } } });
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const token of [session.refresh_token, refreshed.body.refresh_token]) {
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(stored).not.toContain(token);
      // A row exists for the token, under its hash: the check above is not vacuous.
      expect(rows.map((row) => row.tokenHash)).toContain(sha256(token));
    }
    expect(rows.find((row) => row.tokenHash === sha256(session.refresh_token))!.spentAt).not.toBeNull();
    expect(rows.find((row) => row.tokenHash === sha256(refreshed.body.refresh_token))!.spentAt).toBeNull();
  });
});

describe("POST /v1/auth/logout", () => {
  it("answers 204 and ends that sign-in; another sign-in of the same user is unaffected", async () => {
    const email = newEmail();
    const ending = await signInRest(t, email);
    const staying = await signInRest(t, email);
    expect(staying.user_id).toBe(ending.user_id);

    const loggedOut = await t.request("POST", "/v1/auth/logout", { body: { refresh_token: ending.refresh_token } });
    expect(loggedOut.status).toBe(204);
    expect(loggedOut.body).toBeUndefined();
    expectRestError(await refresh(t, ending.refresh_token), 401, "AUTHENTICATION_REQUIRED");

    const kept = await refresh(t, staying.refresh_token);
    expect(kept.status).toBe(200);
    expect((await refresh(t, kept.body.refresh_token)).status).toBe(200);
  });

  it("with a rotated token revokes the whole family, including its newest token", async () => {
    const session = await signInRest(t, newEmail());
    const rotated = await refresh(t, session.refresh_token);
    expect(rotated.status).toBe(200);
    const loggedOut = await t.request("POST", "/v1/auth/logout", {
      body: { refresh_token: rotated.body.refresh_token },
    });
    expect(loggedOut.status).toBe(204);
    expectRestError(await refresh(t, rotated.body.refresh_token), 401, "AUTHENTICATION_REQUIRED");
    const families = await t.app.db.sessionFamily.findMany({ where: { profileId: session.user_id } });
    expect(families.map((family) => family.revokedAt === null)).toEqual([false]);
  });
});

describe("ending a sign-in ends its access tokens at once", () => {
  it("logout: the session's access token (already used, so cached) is refused by the very next request", async () => {
    const email = newEmail();
    const ending = await signInRest(t, email);
    const staying = await signInRest(t, email);
    expect((await listCredentials(t, ending.access_token)).status).toBe(200);
    expect((await t.request("POST", "/v1/auth/logout", { body: { refresh_token: ending.refresh_token } })).status).toBe(
      204,
    );
    const refused = await listCredentials(t, ending.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_BEARER_TOKEN");
    expect((await listCredentials(t, staying.access_token)).status).toBe(200);
  });

  it("refresh-token reuse: every access token of the family is refused, the thief's and the holder's", async () => {
    const session = await signInRest(t, newEmail());
    const rotated = await refresh(t, session.refresh_token);
    expect((await listCredentials(t, rotated.body.access_token)).status).toBe(200);
    expectRestError(await refresh(t, session.refresh_token), 401, "AUTHENTICATION_REQUIRED");
    expectRestError(await listCredentials(t, rotated.body.access_token), 401, "INVALID_BEARER_TOKEN");
    expectRestError(await listCredentials(t, session.access_token), 401, "INVALID_BEARER_TOKEN");
  });
});

const REQUEST_OTP = `mutation RequestOtp($email: String!, $locale: String) { requestOtp(email: $email, locale: $locale) { success message } }`;
const SESSION_FIELDS = "accessToken refreshToken userId tokenType expiresIn";
const VERIFY_OTP = `mutation VerifyOtp($email: String!, $token: String!) { verifyOtp(email: $email, token: $token) { session { ${SESSION_FIELDS} } } }`;
const REFRESH = `mutation Refresh($refreshToken: String!) { refreshSession(refreshToken: $refreshToken) { session { ${SESSION_FIELDS} } } }`;
const LOGOUT = `mutation Logout($refreshToken: String!) { logout(refreshToken: $refreshToken) { loggedOut } }`;

async function gqlSignIn(app: TestApp, email: string) {
  const requested = await app.graphql(REQUEST_OTP, { email });
  expect(requested.body.errors, JSON.stringify(requested.body)).toBeUndefined();
  const code = await app.smtp.nextCode(email);
  const verified = await app.graphql(VERIFY_OTP, { email, token: code });
  expect(verified.body.errors, JSON.stringify(verified.body)).toBeUndefined();
  return rememberSession(verified.body.data.verifyOtp.session) as {
    accessToken: string;
    refreshToken: string;
    userId: string;
    tokenType: string;
    expiresIn: number;
  };
}

describe("GraphQL sign-in and sessions", () => {
  it("requestOtp and verifyOtp sign in with a normalized email, the same user as over REST", async () => {
    const local = `Gql-${randomUUID().slice(0, 8)}`;
    const normalized = `${local.toLowerCase()}@example.com`;
    const requested = await t.graphql(REQUEST_OTP, { email: ` ${local.toUpperCase()}@EXAMPLE.com `, locale: "en" });
    expect(requested.status).toBe(200);
    expect(requested.body.errors).toBeUndefined();
    expect(requested.body.data.requestOtp).toEqual({ success: true, message: expect.any(String) });
    const code = await t.smtp.nextCode(normalized);
    const verified = await t.graphql(VERIFY_OTP, { email: normalized, token: code });
    expect(verified.body.errors).toBeUndefined();
    const session = rememberSession(verified.body.data.verifyOtp.session);
    expect(session).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      userId: expect.any(String),
      tokenType: "BEARER",
      expiresIn: 900,
    });
    expect((jwt.decode(session.accessToken) as jwt.JwtPayload).sub).toBe(session.userId);
    const me = await t.graphql("{ me { id email } }", undefined, { authorization: `Bearer ${session.accessToken}` });
    expect(me.body.data.me).toEqual({ id: session.userId, email: normalized });
    const rest = await signInRest(t, normalized);
    expect(rest.user_id).toBe(session.userId);
  });

  it("reports validation, wrong, reused and exhausted codes in extensions.code and extensions.status", async () => {
    const invalid = await t.graphql(REQUEST_OTP, { email: "not-an-email" });
    expectGraphQLError(invalid, "VALIDATION_FAILED", 400);
    expect(invalid.body.errors[0].extensions.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "email" })]),
    );

    const email = newEmail("gql");
    expect((await t.graphql(REQUEST_OTP, { email })).body.data.requestOtp.success).toBe(true);
    const code = await t.smtp.nextCode(email);
    const wrong = await t.graphql(VERIFY_OTP, { email, token: wrongCode(code) });
    expectGraphQLError(wrong, "INVALID_OTP", 400);
    expect(wrong.body.data?.verifyOtp ?? null).toBeNull();
    const right = await t.graphql(VERIFY_OTP, { email, token: code });
    expect(right.body.errors).toBeUndefined();
    rememberSession(right.body.data.verifyOtp.session);
    expectGraphQLError(await t.graphql(VERIFY_OTP, { email, token: code }), "INVALID_OTP", 400);

    const expiring = newEmail("gql");
    await t.graphql(REQUEST_OTP, { email: expiring });
    const expiringCode = await t.smtp.nextCode(expiring);
    await t.app.db.otpChallenge.update({
      where: { email: expiring },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expectGraphQLError(await t.graphql(VERIFY_OTP, { email: expiring, token: expiringCode }), "INVALID_OTP", 400);

    const exhausted = newEmail("gql");
    await t.graphql(REQUEST_OTP, { email: exhausted });
    const exhaustedCode = await t.smtp.nextCode(exhausted);
    for (let i = 1; i <= 5; i++) {
      expectGraphQLError(
        await t.graphql(VERIFY_OTP, { email: exhausted, token: wrongCode(exhaustedCode, i) }),
        "INVALID_OTP",
        400,
      );
    }
    expectGraphQLError(
      await t.graphql(VERIFY_OTP, { email: exhausted, token: exhaustedCode }),
      "OTP_ATTEMPTS_EXCEEDED",
      429,
    );
  });

  it("refreshSession rotates; a spent token fails with AUTHENTICATION_REQUIRED and revokes the family", async () => {
    const session = await gqlSignIn(t, newEmail("gql"));
    const rotated = await t.graphql(REFRESH, { refreshToken: session.refreshToken });
    expect(rotated.body.errors).toBeUndefined();
    const next = rememberSession(rotated.body.data.refreshSession.session);
    expect(next).toMatchObject({ userId: session.userId, tokenType: "BEARER", expiresIn: 900 });
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect(next.accessToken).not.toBe(session.accessToken);
    const me = await t.graphql("{ me { id } }", undefined, { authorization: `Bearer ${next.accessToken}` });
    expect(me.body.data.me.id).toBe(session.userId);

    const reuse = await t.graphql(REFRESH, { refreshToken: session.refreshToken });
    expectGraphQLError(reuse, "AUTHENTICATION_REQUIRED", 401);
    expectGraphQLError(await t.graphql(REFRESH, { refreshToken: next.refreshToken }), "AUTHENTICATION_REQUIRED", 401);
    expectGraphQLError(await t.graphql(REFRESH, { refreshToken: "garbage" }), "AUTHENTICATION_REQUIRED", 401);
  });

  it("logout answers loggedOut and ends only that sign-in", async () => {
    const email = newEmail("gql");
    const ending = await gqlSignIn(t, email);
    const staying = await gqlSignIn(t, email);
    const loggedOut = await t.graphql(LOGOUT, { refreshToken: ending.refreshToken });
    expect(loggedOut.body).toEqual({ data: { logout: { loggedOut: true } } });
    expectGraphQLError(await t.graphql(REFRESH, { refreshToken: ending.refreshToken }), "AUTHENTICATION_REQUIRED", 401);
    const kept = await t.graphql(REFRESH, { refreshToken: staying.refreshToken });
    expect(kept.body.errors).toBeUndefined();
    rememberSession(kept.body.data.refreshSession.session);
  });
});

describe("resend cool-down (OTP_RESEND_COOLDOWN_SECONDS=60)", () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await startTestApp({ OTP_RESEND_COOLDOWN_SECONDS: "60", RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "100000" });
  });
  afterAll(() => slow?.close());

  it("refuses a second request within the cool-down with 429 RATE_LIMITED and Retry-After; the first code stays valid", async () => {
    const email = newEmail("cool");
    const code = await requestOtp(slow, email);
    // The cool-down follows the normalized address.
    const again = await slow.request("POST", "/v1/auth/request-otp", { body: { email: `  ${email.toUpperCase()} ` } });
    expectRestError(again, 429, "RATE_LIMITED");
    const retryAfter = Number(again.headers["retry-after"]);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expect(slow.smtp.nextCode(email, 500)).rejects.toThrow();
    const verified = await verifyOtp(slow, email, code);
    expect(verified.status).toBe(200);
    rememberSession(verified.body);
  });

  it("sends exactly one mail for 10 concurrent requests", async () => {
    const email = newEmail("burst");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => slow.request("POST", "/v1/auth/request-otp", { body: { email } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of results.filter((r) => r.status !== 200)) {
      expectRestError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    const code = await slow.smtp.nextCode(email);
    await expect(slow.smtp.nextCode(email, 1000)).rejects.toThrow(/no code mailed/);
    const verified = await verifyOtp(slow, email, code);
    expect(verified.status).toBe(200);
    rememberSession(verified.body);
  });

  it("applies to the GraphQL requestOtp too (RATE_LIMITED, status 429)", async () => {
    const email = newEmail("cool-gql");
    expect((await slow.graphql(REQUEST_OTP, { email })).body.data.requestOtp.success).toBe(true);
    await slow.smtp.nextCode(email);
    const again = await slow.graphql(REQUEST_OTP, { email });
    expectGraphQLError(again, "RATE_LIMITED", 429);
    await expect(slow.smtp.nextCode(email, 500)).rejects.toThrow();
  });
});

// RATE_LIMIT_OTP_PER_IP_PER_MINUTE bounds request-otp and verify-otp per client address (src/config.ts,
// src/rest/v1/auth.ts); CONTRACT.md, Conventions: a rate limit answers 429 RATE_LIMITED with Retry-After.
describe("per-address limit on the sign-in routes", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "2" });
    await insideOneRateLimitWindow();
  });
  afterAll(() => limited?.close());

  it("answers 429 RATE_LIMITED with Retry-After once the limit is spent", async () => {
    for (let i = 0; i < 2; i++) await requestOtp(limited, newEmail("ip"));
    const email = newEmail("ip");
    const refused = await limited.request("POST", "/v1/auth/request-otp", { body: { email } });
    expectRestError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    await expect(limited.smtp.nextCode(email, 500)).rejects.toThrow();
  });
});
