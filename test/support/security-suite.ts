import { randomInt, randomUUID, createHash } from "node:crypto";
import { getDirective } from "@graphql-tools/utils";
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";
import jwt from "jsonwebtoken";
import { beforeAll, describe, expect, it } from "vitest";
import type { Capability } from "../../src/auth/capabilities.js";
import { Prisma } from "../../src/generated/prisma/client.js";
import type { Corridor } from "../../src/reference-data/corridors.js";
import type { HttpResponse, TestApp } from "./app.js";
import { rememberSecret } from "./secrets.js";
import { BUY_QUOTE } from "./kit.js";
import { multipartForm, type FormFields } from "./multipart.js";

/**
 * The shared security suite (ARCHITECTURE.md, "Examples to follow"): every authenticated REST route and
 * every GraphQL operation is registered here as a target and runs the same cases: missing, malformed,
 * unknown, revoked, expired, wrong-environment and mismatched keys; broken bearer tokens; every principal
 * kind (the operator token included) against the capability matrix; a managed child's own credential against
 * the target's delegation rule. A rejected call must answer the contract's code and change nothing.
 *
 * A new route or operation joins by adding one entry to the registry in test/integration/security.test.ts;
 * the completeness checks there fail until it does.
 */

type PrincipalKind = "anonymous" | "public" | "secret" | "session" | "operator";
/** Every kind of caller the capability matrix knows; `operator` is the operator token (`Authorization: Bearer`). */
const PRINCIPAL_KINDS: readonly PrincipalKind[] = ["anonymous", "public", "secret", "session", "operator"];

/** Configuration for the app the suite runs against: sign-in limits out of the way, last-use flushes off. */
export const SECURITY_SUITE_ENV: Record<string, string> = {
  RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "10000",
  RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
  RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000",
  // Last-use times are bookkeeping of a verified key, not a change a rejected call may make; keep them
  // (and the updatedAt they bump) out of the before/after comparison by not flushing during the run.
  LAST_USED_FLUSH_INTERVAL_MS: "3600000",
};

/** Statuses of the authentication codes (and NOT_FOUND, for another owner's object), as CONTRACT.md's error table states them. */
const CONTRACT_STATUS = {
  AUTHENTICATION_REQUIRED: 401,
  CREDENTIAL_REQUIRED: 401,
  INVALID_PUBLIC_KEY: 401,
  INVALID_SECRET_KEY: 401,
  INVALID_API_KEY: 401,
  INVALID_BEARER_TOKEN: 401,
  CREDENTIAL_MISMATCH: 403,
  FORBIDDEN: 403,
  MANAGED_PROFILE_ACCESS_DENIED: 403,
  NOT_FOUND: 404,
} as const;
type AuthErrorCode = keyof typeof CONTRACT_STATUS;

interface Credential {
  id: string;
  publicKey: string;
  secretKey: string;
}

/** What every target's inputs and every case's headers are built from; created once per suite. */
export interface SecurityFixtures {
  t: TestApp;
  /**
   * The profile the suite acts as: a session and an active credential of its own. The operator made it an
   * active manager (every corridor a child may use), so it owns managed children. Its KYC is approved in
   * BR, US, MX, AR and CO, so it may register the suite's ramps and own payout accounts.
   */
  owner: { profileId: string; accessToken: string; headers: Record<string, string>; credential: Credential };
  /** A second profile: two active credentials, one revoked, one expired, one of the live environment. */
  stranger: { profileId: string; credential: Credential; sibling: Credential };
  revoked: Credential;
  expired: Credential;
  live: Credential;
  /** Bearer tokens that must all be refused, by name. */
  badTokens: Record<string, string>;
  /** An active credential of the owner that a call may revoke; replaced once it is no longer active. */
  spareCredential(): Promise<Credential>;
  /** A refresh token that is unspent and whose sign-in is not revoked; a new sign-in once it is used up. */
  liveRefreshToken(): Promise<string>;
  /** An active managed child of the owner with room for another credential; a new child once it is deleted or full. */
  child(): Promise<{ profileId: string }>;
  /**
   * The own credential of an active managed child of the owner (the child's key, no selector); replaced once
   * it or its child is no longer active. Its child is not the one `child()` returns, so deleting that leaves it.
   * The child's KYC is approved like the owner's, so it may register ramps and own payout accounts with this key.
   */
  childCredential(): Promise<Credential & { profileId: string }>;
  /** An active credential of an active child of the owner that a call may revoke; replaced once it is not. */
  spareChildCredential(): Promise<Credential & { profileId: string }>;
  /** A signed-in profile that is no manager yet, for the operator to enable; a new one once it is. */
  nonManagerProfile(): Promise<string>;
  /** A profile with a pricing assignment (the stranger). */
  pricedProfileId: string;
  /** An active partner, and a profile with room for one more partner-managed credential. */
  partner: { id: string; subject(): Promise<string> };
  /** A partner whose active flag calls may toggle. */
  togglePartnerId: string;
  /**
   * An unconsumed quote (BUY, 250.00 BRL over pix to USDC on polygon) created with `caller`'s headers, so it
   * is the caller's own (unowned for a public key or none); created with the owner's session when `caller`
   * may not create one. The same quote again while no call consumed it (refused calls change nothing).
   */
  quote(caller?: Record<string, string>): Promise<string>;
  /**
   * An untouched BUY ramp in phase initial (no signed transactions yet), registered with `caller`'s headers
   * on a quote of its own; registered with the owner's secret key when `caller` may not register one. The
   * same ramp again while it is untouched.
   */
  ramp(caller?: Record<string, string>): Promise<string>;
}

type MaybePromise<T> = T | Promise<T>;
type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface TargetBase {
  /** Shown in test names; defaults to the route or the schema coordinate. */
  name?: string;
  /** Tasks of CAPABILITY_MATRIX the call performs, all of them; the allowed kinds are their intersection. */
  capabilities: readonly [Capability, ...Capability[]];
  /**
   * What an allowed kind must get: `success` (default: 2xx, no GraphQL errors, which also proves the inputs
   * are real, so "a refused call changed nothing" means something) or `not-refused` (no 401/403).
   */
  allowedOutcome?: "success" | "not-refused";
  /**
   * The route's delegation rule for a managed child's own credential (CONTRACT.md, Delegation): `refused`
   * answers 403 MANAGED_PROFILE_ACCESS_DENIED to a kind the matrix allows; `allowed` (default) lets the child
   * act as itself.
   */
  childCredential?: "allowed" | "refused";
  /**
   * The inputs name an object of the caller's own (a quote, a ramp: prepared with the case's headers as
   * `caller`). One more case then asks with another profile's secret key about an object prepared for the
   * owner: another owner's object is 404 NOT_FOUND, never forbidden (ARCHITECTURE.md), and nothing changes.
   */
  ownedInputs?: boolean;
}

export interface RestTarget extends TargetBase {
  /** `METHOD /path` as in the OpenAPI document, path parameters in braces. */
  route: `${HttpMethod} /${string}`;
  /**
   * Path parameters; called before every case (outside the no-change window) with the headers the inputs
   * are for (`caller`: the case's own, see `ownedInputs`).
   */
  params?: (fx: SecurityFixtures, caller: Record<string, string>) => MaybePromise<Record<string, string>>;
  /** A valid request body; called before every case, like `params`. */
  body?: (fx: SecurityFixtures, caller: Record<string, string>) => MaybePromise<unknown>;
  /** The body is a multipart/form-data form of these fields (text, or a file) rather than JSON. */
  form?: true;
  /** A valid query string; called before every case. */
  query?: (fx: SecurityFixtures) => MaybePromise<Record<string, string>>;
}

interface GraphQLTarget extends TargetBase {
  /** The schema coordinate this target covers, `Type.field`: a root field or a field carrying @auth. */
  field: `${string}.${string}`;
  /** Where the field is served: the operator's endpoint, or /graphql (the default). */
  endpoint?: "/admin/graphql";
  /** The document to send; it must select `field`, and the @auth of every field it selects must add up to `capabilities`. */
  document: string;
  /** Valid variables; called before every case with the headers the inputs are for (as RestTarget.params). */
  variables?: (fx: SecurityFixtures, caller: Record<string, string>) => MaybePromise<Record<string, unknown>>;
  /** Variables that fail validation (coercion): an unauthenticated caller must still get the authentication error. */
  invalidVariables?: (fx: SecurityFixtures, caller: Record<string, string>) => MaybePromise<Record<string, unknown>>;
}

export type SecurityTarget = RestTarget | GraphQLTarget;

export const isRest = (target: SecurityTarget): target is RestTarget => "route" in target;
const targetName = (target: SecurityTarget) =>
  target.name ?? (isRest(target) ? target.route : `GraphQL ${target.field}`);

/**
 * The golden table: who may perform each task, written down from CONTRACT.md (capability matrix) and the
 * project's additions, not read from the production table it checks.
 */
const EXPECTED_MATRIX: Record<Capability, readonly PrincipalKind[]> = {
  SIGN_IN: ["anonymous", "public", "secret", "session"],
  QUOTE: ["anonymous", "public", "secret", "session"],
  REFERENCE_DATA: ["anonymous", "public", "secret", "session"],
  RAMP_INFO: ["public", "secret"],
  PROFILE_READ: ["secret", "session"],
  EXACT_LIMITS: ["secret", "session"],
  PROVIDER_ACCOUNTS: ["secret", "session"],
  RAMP_OPERATIONS: ["secret", "session"],
  ACT_FOR_MANAGED_CHILD: ["secret", "session"],
  MANAGED_PROFILES: ["secret", "session"],
  MANAGE_CHILD_CREDENTIALS: ["secret", "session"],
  BR_KYC_IMPORT: ["secret", "session"],
  WEBHOOK_MANAGEMENT: ["secret"],
  OWN_CREDENTIALS: ["session"],
  RECIPIENTS: ["session"],
  ACTIVE_ENTITY: ["session"],
  OPERATOR: ["operator"],
};
/** Tasks only one kind of credential authenticates for: another kind is unauthenticated there (401). */
const EXPECTED_SINGLE_CREDENTIAL_TASKS: readonly Capability[] = ["WEBHOOK_MANAGEMENT", "OPERATOR"];

/**
 * The contract's answer to a kind the matrix does not allow (CONTRACT.md: error table, capability matrix).
 * The operator surface knows only the operator token: any other caller is unauthenticated there (401), while
 * the operator token is a known caller that may not do the profiles' tasks (403).
 */
function refusalFor(target: SecurityTarget, kind: PrincipalKind): AuthErrorCode | undefined {
  const missing = target.capabilities.find((capability) => !EXPECTED_MATRIX[capability].includes(kind));
  if (!missing) return undefined;
  if (kind === "anonymous") return missing === "RAMP_INFO" ? "CREDENTIAL_REQUIRED" : "AUTHENTICATION_REQUIRED";
  if (EXPECTED_SINGLE_CREDENTIAL_TASKS.includes(missing)) return "AUTHENTICATION_REQUIRED";
  return "FORBIDDEN";
}

/** The answer to a managed child's own key of the given kind: the matrix first, then the route's delegation rule. */
function childRefusalFor(target: SecurityTarget, kind: "public" | "secret"): AuthErrorCode | undefined {
  return (
    refusalFor(target, kind) ?? (target.childCredential === "refused" ? "MANAGED_PROFILE_ACCESS_DENIED" : undefined)
  );
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures

const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const keyBody = () => Array.from({ length: 32 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join("");
const sha256Hex = (value: string) => createHash("sha256").update(value).digest("hex");
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A well-formed key value no credential has; remembered, since a presented key must never be logged either. */
export function unknownKey(kind: "pk" | "sk", environment: "test" | "live" = "test"): string {
  return rememberSecret(`${kind}_${environment}_${keyBody()}`);
}

async function createSecurityFixtures(t: TestApp): Promise<SecurityFixtures> {
  const owner = await t.signIn(`security-owner-${randomUUID()}@example.com`);
  const stranger = await t.signIn(`security-stranger-${randomUUID()}@example.com`);
  const ownerCredential = await t.createCredential(owner.headers, { name: "security suite: owner" });
  const strangerCredential = await t.createCredential(stranger.headers, { name: "security suite: stranger" });
  const sibling = await t.createCredential(stranger.headers, { name: "security suite: sibling" });

  // Revoked after use, so a cached verification has to be dropped by the revocation.
  const revoked = await t.createCredential(stranger.headers, { name: "security suite: revoked" });
  const used = await t.graphql("{ me { id } }", undefined, {
    "x-api-key": revoked.secretKey,
    "x-public-key": revoked.publicKey,
  });
  if (used.body?.data?.me?.id !== stranger.profileId)
    throw new Error(`fixture: revoked credential unusable before revocation: ${JSON.stringify(used.body)}`);
  const revocation = await t.request("DELETE", `/v1/api-credentials/${revoked.id}`, { headers: stranger.headers });
  if (revocation.status !== 204) throw new Error(`fixture: revoke: ${JSON.stringify(revocation.body)}`);

  // Expired in the database before it was ever presented, so no cache holds it as valid.
  const expired = await t.createCredential(stranger.headers, { name: "security suite: expired" });
  await t.app.db.apiCredential.update({
    where: { id: expired.id },
    data: { expiresAt: new Date(Date.now() - 60_000) },
  });

  // A stored, active credential of the live environment: this test deployment must not accept it.
  const live: Credential = {
    id: randomUUID(),
    publicKey: `pk_live_${keyBody()}`,
    secretKey: rememberSecret(`sk_live_${keyBody()}`),
  };
  await t.app.db.apiCredential.create({
    data: {
      id: live.id,
      name: "security suite: live",
      profileId: stranger.profileId,
      environment: "live",
      publicKey: live.publicKey,
      secretKeyPrefix: live.secretKey.slice(0, 16),
      secretKeyHash: sha256Hex(live.secretKey),
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });

  const { secret, issuer, audience } = t.app.config.jwt;
  const claims = { subject: owner.profileId, issuer, audience, expiresIn: 600 };
  // A valid token's options, with some replaced or (set to undefined) left out.
  // The owner's sign-in: every forged token below names it, so each is refused for its one defect.
  const sid = (jwt.decode(owner.accessToken) as jwt.JwtPayload).sid as string;
  const sign = (
    options: Partial<Record<keyof jwt.SignOptions, unknown>>,
    key: string = secret,
    payload: object = { sid },
  ) => {
    const merged = Object.entries({ algorithm: "HS256", jwtid: randomUUID(), ...claims, ...options }).filter(
      ([, value]) => value !== undefined,
    );
    return rememberSecret(jwt.sign(payload, key, Object.fromEntries(merged) as jwt.SignOptions));
  };
  const nowSeconds = Math.floor(Date.now() / 1000);
  const badTokens = {
    "garbage bearer token": "Bearer garbage",
    "JWT-shaped garbage": "Bearer aaa.bbb.ccc",
    "bearer scheme without a token": "Bearer",
    "token under the Basic scheme": `Basic ${sign({})}`,
    "bad signature": `Bearer ${sign({}, `another-secret-${randomUUID()}`)}`,
    "expired token": `Bearer ${sign({ expiresIn: undefined }, secret, { exp: nowSeconds - 60, iat: nowSeconds - 960 })}`,
    "wrong issuer": `Bearer ${sign({ issuer: "someone-else" })}`,
    "wrong audience": `Bearer ${sign({ audience: "another-api" })}`,
    "other algorithm (HS512)": `Bearer ${sign({ algorithm: "HS512" })}`,
    "unsigned (alg none)": `Bearer ${base64url({ alg: "none", typ: "JWT" })}.${base64url({ sub: owner.profileId, iss: issuer, aud: audience, exp: nowSeconds + 600, jti: randomUUID() })}.`,
    "token without jti": `Bearer ${sign({ jwtid: undefined })}`,
    "token without sid (no sign-in)": `Bearer ${sign({}, secret, {})}`,
    "token naming an unknown sign-in": `Bearer ${sign({}, secret, { sid: randomUUID() })}`,
  };

  let spare: Credential | undefined;
  let refreshToken: string | undefined;
  const refreshEmail = `security-refresh-${randomUUID()}@example.com`;

  // The owner is an active manager: the operator enables it with every corridor a child may use.
  const enabled = await t.request("PUT", `/v1/admin/managers/${owner.profileId}`, {
    headers: t.operatorHeaders,
    body: { allowedCorridors: ["BR", "MX", "US", "AR", "CO"], isActive: true },
  });
  if (enabled.status !== 201) throw new Error(`fixture: enable manager: ${JSON.stringify(enabled.body)}`);
  const ownerSecret = { "x-api-key": ownerCredential.secretKey };
  const createChild = async (label: string) => {
    const created = await t.request("POST", "/v1/managed-profiles", {
      headers: ownerSecret,
      body: {
        externalSubjectId: `security-${label}-${randomUUID()}`,
        contactEmail: `security-${label}-${randomUUID()}@example.com`,
        customerType: "individual",
      },
    });
    if (created.status !== 201) throw new Error(`fixture: create child: ${JSON.stringify(created.body)}`);
    return { profileId: created.body.managedProfile.profileId as string };
  };
  const issueChildCredential = async (profileId: string, name: string) => {
    const created = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, {
      headers: ownerSecret,
      body: { name },
    });
    if (created.status !== 201) throw new Error(`fixture: child credential: ${JSON.stringify(created.body)}`);
    rememberSecret(created.body.secretKey);
    return {
      id: created.body.id as string,
      publicKey: created.body.publicKey as string,
      secretKey: created.body.secretKey as string,
      profileId,
    };
  };
  /** The credential (and its child) are both still active. */
  const stillActive = async (credential: (Credential & { profileId: string }) | undefined) => {
    if (!credential) return false;
    const row = await t.app.db.apiCredential.findUnique({
      where: { id: credential.id },
      include: { profile: { select: { deletedAt: true } } },
    });
    return !!row && !row.revokedAt && !row.profile.deletedAt;
  };
  // The subjects that register the suite's ramps (BUY over pix: the BR corridor) and own its payout accounts
  // (US, MX, AR, CO: a customer there first), the owner and the keyed child, complete KYC in those corridors
  // through the API once, when made, outside every no-change window. The child goes through the owner's
  // selector, so its own key is still unused when the check below runs.
  const KYC_CORRIDORS: Corridor[] = ["BR", "US", "MX", "AR", "CO"];
  await t.completeKyc(owner.headers, KYC_CORRIDORS);
  const createKeyedChild = async () => {
    const { profileId } = await createChild("keyed-child");
    await t.completeKyc({ ...ownerSecret, "x-managed-profile-id": profileId }, KYC_CORRIDORS);
    return issueChildCredential(profileId, "security suite: child's own");
  };
  let child = await createChild("child");
  let childCredential = await createKeyedChild();
  let spareChildCredential: (Credential & { profileId: string }) | undefined;
  const activeChild = async () => {
    const row = await t.app.db.profile.findUnique({ where: { id: child.profileId } });
    const active = await t.app.db.apiCredential.count({
      where: { profileId: child.profileId, revokedAt: null, expiresAt: { gt: new Date() } },
    });
    if (!row || row.deletedAt || active >= 4) child = await createChild("child");
    return child;
  };

  // Before the first use of the child's key: prove it authenticates as the child, so its refusals mean something.
  const asChild = await t.graphql("{ me { id } }", undefined, { "x-api-key": childCredential.secretKey });
  if (asChild.body?.data?.me?.id !== childCredential.profileId)
    throw new Error(`fixture: child credential unusable: ${JSON.stringify(asChild.body)}`);

  // Operator fixtures: a pricing assignment to read, partners to toggle and to issue credentials with.
  const priced = await t.request("PUT", `/v1/admin/pricing-assignments/${stranger.profileId}`, {
    headers: t.operatorHeaders,
    body: { pricingProfile: "partner-markup" },
  });
  if (priced.status !== 200) throw new Error(`fixture: pricing assignment: ${JSON.stringify(priced.body)}`);
  const createPartner = async (name: string) => {
    const created = await t.request("POST", "/v1/admin/partners", { headers: t.operatorHeaders, body: { name } });
    if (created.status !== 201) throw new Error(`fixture: partner: ${JSON.stringify(created.body)}`);
    return created.body.partner.id as string;
  };
  const partnerId = await createPartner("security suite: issuing partner");
  const togglePartnerId = await createPartner("security suite: toggled partner");
  let partnerSubject = (await t.signIn(`security-partner-subject-${randomUUID()}@example.com`)).profileId;
  let nonManager: string | undefined;
  // Quotes and ramps, made with the caller's headers when it may make them, else for the owner; the last
  // one made per headers is handed out again while still unused (fewer rows for every comparison).
  const made = new Map<string, string>();
  const forCaller = async (
    kind: string,
    caller: Record<string, string> | undefined,
    fallback: Record<string, string>,
    unused: (id: string) => Promise<boolean>,
    make: (headers: Record<string, string>) => Promise<HttpResponse>,
  ): Promise<string> => {
    for (const headers of caller ? [caller, fallback] : [fallback]) {
      const key = `${kind} ${JSON.stringify(headers)}`;
      const previous = made.get(key);
      if (previous && (await unused(previous))) return previous;
      const created = await make(headers);
      if (created.status === 201) {
        made.set(key, created.body.id);
        return created.body.id as string;
      }
      if (headers === fallback) throw new Error(`fixture: ${kind}: ${JSON.stringify(created.body)}`);
    }
    throw new Error("unreachable");
  };
  const soon = () => new Date(Date.now() + 60_000);
  const quote = (caller?: Record<string, string>) =>
    forCaller(
      "quote",
      caller,
      owner.headers,
      async (id) => (await t.app.db.quote.count({ where: { id, consumedAt: null, expiresAt: { gt: soon() } } })) === 1,
      (headers) => t.request("POST", "/v1/quotes", { headers, body: BUY_QUOTE }),
    );

  return {
    t,
    owner: {
      profileId: owner.profileId,
      accessToken: owner.accessToken,
      headers: owner.headers,
      credential: ownerCredential,
    },
    stranger: { profileId: stranger.profileId, credential: strangerCredential, sibling },
    revoked,
    expired,
    live,
    badTokens,
    async spareCredential() {
      const row = spare && (await t.app.db.apiCredential.findUnique({ where: { id: spare.id } }));
      if (!spare || !row || row.revokedAt)
        spare = await t.createCredential(owner.headers, { name: "security suite: spare" });
      return spare;
    },
    async liveRefreshToken() {
      const row =
        refreshToken &&
        (await t.app.db.refreshToken.findUnique({
          where: { tokenHash: sha256Hex(refreshToken) },
          include: { family: true },
        }));
      if (!refreshToken || !row || row.spentAt || row.family.revokedAt || row.expiresAt <= new Date()) {
        refreshToken = (await t.signIn(refreshEmail)).refreshToken;
      }
      return refreshToken;
    },
    child: activeChild,
    async childCredential() {
      if (!(await stillActive(childCredential))) childCredential = await createKeyedChild();
      return childCredential;
    },
    async spareChildCredential() {
      if (!(await stillActive(spareChildCredential))) {
        spareChildCredential = await issueChildCredential(
          (await activeChild()).profileId,
          "security suite: child's spare",
        );
      }
      return spareChildCredential!;
    },
    async nonManagerProfile() {
      if (!nonManager || (await t.app.db.manager.findUnique({ where: { profileId: nonManager } }))) {
        nonManager = (await t.signIn(`security-non-manager-${randomUUID()}@example.com`)).profileId;
      }
      return nonManager;
    },
    pricedProfileId: stranger.profileId,
    partner: {
      id: partnerId,
      async subject() {
        const active = await t.app.db.apiCredential.count({
          where: { profileId: partnerSubject, revokedAt: null, expiresAt: { gt: new Date() } },
        });
        if (active >= 4)
          partnerSubject = (await t.signIn(`security-partner-subject-${randomUUID()}@example.com`)).profileId;
        return partnerSubject;
      },
    },
    togglePartnerId,
    quote,
    ramp: (caller) =>
      forCaller(
        "ramp",
        caller,
        ownerSecret,
        async (id) =>
          (await t.app.db.ramp.count({
            where: { id, currentPhase: "initial", presignedTxs: "[]", startDeadline: { gt: soon() } },
          })) === 1,
        async (headers) =>
          t.request("POST", "/v1/ramp/register", {
            headers,
            body: { quoteId: await quote(headers), destinationAddress: `0x${"1".repeat(40)}` },
          }),
      ),
  };
}

/** Headers that authenticate as each principal kind, all for the owner (the operator token speaks for no profile). */
function kindHeaders(fx: SecurityFixtures, kind: PrincipalKind): Record<string, string> {
  switch (kind) {
    case "operator":
      return fx.t.operatorHeaders;
    case "anonymous":
      return {};
    case "public":
      return { "x-public-key": fx.owner.credential.publicKey };
    case "secret":
      return { "x-api-key": fx.owner.credential.secretKey };
    case "session":
      return fx.owner.headers;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Cases

interface SecurityCase {
  name: string;
  /** Prepared before the no-change window opens (it may create the fixture it names). */
  headers: (fx: SecurityFixtures) => MaybePromise<Record<string, string>>;
  /** The contract's error, or `allowed`: authentication must not refuse the call. */
  expected: AuthErrorCode | "allowed";
  /** Whose inputs the case sends (the `caller` of params, body and variables): the case's own headers unless set. */
  inputsFor?: (fx: SecurityFixtures) => MaybePromise<Record<string, string>>;
  /** Send input that fails validation (REST: malformed JSON; GraphQL: the target's invalidVariables). */
  invalidInput?: boolean;
}

const MALFORMED_JSON = '{"truncated": ';

const kindLabel = (kind: PrincipalKind) =>
  kind === "anonymous" ? "no credential" : kind === "operator" ? "operator token" : `${kind} principal`;

/** Every case the suite runs for one target. */
/**
 * The cases for one target. Every credential defect goes through the one authenticator, whatever the route:
 * they all run on one target per transport (`allDefects`), and every other target gets one probe for keys
 * and one for bearer tokens, which shows the authenticator runs there too.
 */
function securityCases(target: SecurityTarget, allDefects: boolean): SecurityCase[] {
  const defects: SecurityCase[] = [
    {
      name: "malformed secret key (sk_test_short)",
      headers: () => ({ "x-api-key": "sk_test_short" }),
      expected: "INVALID_SECRET_KEY",
    },
    {
      name: "public value sent as X-API-Key",
      headers: (fx) => ({ "x-api-key": fx.owner.credential.publicKey }),
      expected: "INVALID_SECRET_KEY",
    },
    {
      name: "malformed public key (pk_test_short)",
      headers: () => ({ "x-public-key": "pk_test_short" }),
      expected: "INVALID_PUBLIC_KEY",
    },
    {
      name: "secret value sent as X-Public-Key",
      headers: (fx) => ({ "x-public-key": fx.owner.credential.secretKey }),
      expected: "INVALID_PUBLIC_KEY",
    },
    {
      name: "well-formed unknown secret key",
      headers: () => ({ "x-api-key": unknownKey("sk") }),
      expected: "INVALID_API_KEY",
    },
    {
      name: "well-formed unknown public key",
      headers: () => ({ "x-public-key": unknownKey("pk") }),
      expected: "INVALID_PUBLIC_KEY",
    },
    {
      name: "revoked secret key",
      headers: (fx) => ({ "x-api-key": fx.revoked.secretKey }),
      expected: "INVALID_API_KEY",
    },
    {
      name: "revoked public key",
      headers: (fx) => ({ "x-public-key": fx.revoked.publicKey }),
      expected: "INVALID_PUBLIC_KEY",
    },
    {
      name: "expired secret key",
      headers: (fx) => ({ "x-api-key": fx.expired.secretKey }),
      expected: "INVALID_API_KEY",
    },
    {
      name: "expired public key",
      headers: (fx) => ({ "x-public-key": fx.expired.publicKey }),
      expected: "INVALID_PUBLIC_KEY",
    },
    {
      name: "unknown sk_live_ value on the test deployment",
      headers: () => ({ "x-api-key": unknownKey("sk", "live") }),
      expected: "INVALID_API_KEY",
    },
    {
      name: "stored live credential's secret on the test deployment",
      headers: (fx) => ({ "x-api-key": fx.live.secretKey }),
      expected: "INVALID_API_KEY",
    },
    {
      name: "stored live credential's public key on the test deployment",
      headers: (fx) => ({ "x-public-key": fx.live.publicKey }),
      expected: "INVALID_PUBLIC_KEY",
    },
    {
      name: "public and secret keys of credentials of two profiles",
      headers: (fx) => ({
        "x-api-key": fx.owner.credential.secretKey,
        "x-public-key": fx.stranger.credential.publicKey,
      }),
      expected: "CREDENTIAL_MISMATCH",
    },
    {
      name: "public and secret keys of two credentials of one profile",
      headers: (fx) => ({
        "x-api-key": fx.stranger.credential.secretKey,
        "x-public-key": fx.stranger.sibling.publicKey,
      }),
      expected: "CREDENTIAL_MISMATCH",
    },
    {
      name: "valid session with a revoked secret key beside it",
      headers: (fx) => ({ ...fx.owner.headers, "x-api-key": fx.revoked.secretKey }),
      expected: "INVALID_API_KEY",
    },
    ...(
      [
        "garbage bearer token",
        "JWT-shaped garbage",
        "bearer scheme without a token",
        "token under the Basic scheme",
        "bad signature",
        "expired token",
        "wrong issuer",
        "wrong audience",
        "other algorithm (HS512)",
        "unsigned (alg none)",
        "token without jti",
      ] as const
    ).map((name): SecurityCase => ({
      name: `bearer: ${name}`,
      headers: (fx) => ({ authorization: fx.badTokens[name]! }),
      expected: "INVALID_BEARER_TOKEN",
    })),
    // The operator token is compared whole: anything else under Bearer is a session token, and is refused as one.
    {
      name: "bearer: the operator token with one character more",
      headers: (fx) => ({ authorization: rememberSecret(`${fx.t.operatorHeaders.authorization}x`) }),
      expected: "INVALID_BEARER_TOKEN",
    },
    {
      name: "the operator token under the Basic scheme",
      headers: (fx) => ({ authorization: fx.t.operatorHeaders.authorization!.replace(/^Bearer /, "Basic ") }),
      expected: "INVALID_BEARER_TOKEN",
    },
  ];
  const probes = ["malformed secret key (sk_test_short)", "bearer: garbage bearer token"];
  const cases = allDefects ? defects : defects.filter((defect) => probes.includes(defect.name));

  for (const kind of PRINCIPAL_KINDS) {
    const label = kindLabel(kind);
    cases.push({
      name: label,
      headers: (fx) => kindHeaders(fx, kind),
      expected: refusalFor(target, kind) ?? "allowed",
    });
  }
  cases.push({
    name: "both values of one credential (a secret principal)",
    headers: (fx) => ({ "x-api-key": fx.owner.credential.secretKey, "x-public-key": fx.owner.credential.publicKey }),
    expected: refusalFor(target, "secret") ?? "allowed",
  });
  // A managed child's own credential acts as the child, without a selector; routes that refuse it answer 403
  // MANAGED_PROFILE_ACCESS_DENIED (CONTRACT.md, Delegation) once the capability matrix has let its kind through.
  const childCases: SecurityCase[] = [
    {
      name: "a managed child's own credential",
      headers: async (fx) => ({ "x-api-key": (await fx.childCredential()).secretKey }),
      expected: childRefusalFor(target, "secret") ?? "allowed",
    },
    {
      name: "a managed child's own credential, both values",
      headers: async (fx) => {
        const credential = await fx.childCredential();
        return { "x-api-key": credential.secretKey, "x-public-key": credential.publicKey };
      },
      expected: childRefusalFor(target, "secret") ?? "allowed",
    },
    {
      name: "a managed child's own public key",
      headers: async (fx) => ({ "x-public-key": (await fx.childCredential()).publicKey }),
      expected: childRefusalFor(target, "public") ?? "allowed",
    },
  ];
  cases.push(...childCases);
  // Another owner's object is not found (ARCHITECTURE.md): inputs prepared for the owner, asked by the stranger.
  if (target.ownedInputs && !refusalFor(target, "secret")) {
    cases.push({
      name: "another profile's secret key on the owner's object",
      headers: (fx) => ({ "x-api-key": fx.stranger.credential.secretKey }),
      inputsFor: (fx) => ({ "x-api-key": fx.owner.credential.secretKey }),
      expected: "NOT_FOUND",
    });
  }

  // Order of checks (CONTRACT.md): authentication before validation; an unauthenticated caller always gets
  // an authentication error, never a validation error. REST refuses in onRequest, before the body is read,
  // so every refused kind is checked there; in GraphQL the capability check runs in the resolver, so only
  // the contract's explicit promise (unauthenticated callers) is held against it.
  if (isRest(target) ? target.body : target.invalidVariables) {
    const invalid = isRest(target) ? "malformed JSON" : "invalid variables";
    cases.push({
      name: `malformed secret key and ${invalid}`,
      headers: () => ({ "x-api-key": "sk_test_short" }),
      expected: "INVALID_SECRET_KEY",
      invalidInput: true,
    });
    for (const kind of PRINCIPAL_KINDS) {
      const refusal = refusalFor(target, kind);
      if (refusal && (isRest(target) || kind === "anonymous")) {
        const label = kindLabel(kind);
        cases.push({
          name: `${label} and ${invalid}`,
          headers: (fx) => kindHeaders(fx, kind),
          expected: refusal,
          invalidInput: true,
        });
      }
    }
    // Direct-child rejection comes before validation too (REST refuses it before the body is read).
    if (isRest(target)) {
      for (const childCase of childCases) {
        if (childCase.expected !== "allowed")
          cases.push({ ...childCase, name: `${childCase.name} and ${invalid}`, invalidInput: true });
      }
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------------------
// Running a case

/**
 * Rows written so far, by anyone, committed or not: a rejected call must write none. SQLite counts them on
 * its one writing connection (`total_changes()`); on PostgreSQL a row trigger on every table draws from a
 * sequence, which no rollback takes back. (Last-use times are not flushed during the suite.)
 */
async function rowsWritten(t: TestApp): Promise<number> {
  const [row] = await t.app.db.$queryRawUnsafe<{ n: bigint | number }[]>(
    t.database.url ? "SELECT last_value - 1 AS n FROM security_suite_writes" : "SELECT total_changes() AS n",
  );
  return Number(row!.n);
}

/** On PostgreSQL, the triggers `rowsWritten` reads; SQLite needs nothing. */
async function countWrites(t: TestApp): Promise<void> {
  if (!t.database.url) return;
  await t.app.db.$executeRawUnsafe("CREATE SEQUENCE security_suite_writes");
  await t.app.db.$executeRawUnsafe("SELECT nextval('security_suite_writes')");
  await t.app.db.$executeRawUnsafe(
    "CREATE FUNCTION security_suite_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('security_suite_writes'); RETURN NULL; END $$",
  );
  for (const table of Object.values(Prisma.ModelName)) {
    await t.app.db.$executeRawUnsafe(
      `CREATE TRIGGER security_suite_count AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION security_suite_count()`,
    );
  }
}

const SECRET_FIELDS = new Set(["secretKey", "accessToken", "refreshToken", "access_token", "refresh_token"]);

/** Remembers every secret an allowed call was given back (a created key, a rotated token). */
function rememberReturnedSecrets(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(rememberReturnedSecrets);
  if (value === null || typeof value !== "object") return;
  for (const [field, inner] of Object.entries(value)) {
    if (SECRET_FIELDS.has(field) && typeof inner === "string") rememberSecret(inner);
    else rememberReturnedSecrets(inner);
  }
}

/** True when a GraphQL `data` tree carries any non-null leaf: a refused call must not answer anything. */
function carriesData(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some(carriesData);
  if (typeof value === "object") return Object.values(value).some(carriesData);
  return true;
}

async function call(
  fx: SecurityFixtures,
  target: SecurityTarget,
  headers: Record<string, string>,
  invalidInput = false,
  caller = headers,
): Promise<HttpResponse> {
  const { t } = fx;
  if (isRest(target)) {
    const [method, template] = target.route.split(" ") as [HttpMethod, string];
    const params = (await target.params?.(fx, caller)) ?? {};
    const query = target.query ? `?${new URLSearchParams(await target.query(fx))}` : "";
    const path = `${template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new Error(`${target.route}: no value for path parameter ${name}`);
      return encodeURIComponent(params[name]);
    })}${query}`;
    if (invalidInput) return t.request(method, path, { headers, rawBody: MALFORMED_JSON });
    const body = await target.body?.(fx, caller);
    if (target.form) {
      const form = multipartForm(body as FormFields);
      return t.request(method, path, { headers: { ...headers, "content-type": form.contentType }, rawBody: form.body });
    }
    return t.request(method, path, { headers, ...(body !== undefined && { body }) });
  }
  return (target.endpoint === "/admin/graphql" ? t.adminGraphql : t.graphql)(
    target.document,
    await (invalidInput ? target.invalidVariables : target.variables)?.(fx, caller),
    headers,
  );
}

function expectRefusal(target: SecurityTarget, response: HttpResponse, code: AuthErrorCode): void {
  const status = CONTRACT_STATUS[code];
  if (isRest(target)) {
    expect({ status: response.status, code: response.body?.error?.code }, JSON.stringify(response.body)).toEqual({
      status,
      code,
    });
    expect(response.body.error.status).toBe(status);
    expect(typeof response.body.error.message).toBe("string");
    expect(response.body.error.requestId).toEqual(expect.any(String));
    expect(response.body.error.requestId.length).toBeGreaterThan(0);
    expect(response.headers["x-request-id"]).toBe(response.body.error.requestId);
    return;
  }
  const [first] = response.body?.errors ?? [];
  expect({ code: first?.extensions?.code, status: first?.extensions?.status }, JSON.stringify(response.body)).toEqual({
    code,
    status,
  });
  expect(carriesData(response.body.data), `data leaked: ${JSON.stringify(response.body.data)}`).toBe(false);
}

function expectNotRefused(target: SecurityTarget, response: HttpResponse): void {
  const shown = JSON.stringify(response.body);
  const success = (target.allowedOutcome ?? "success") === "success";
  if (isRest(target)) {
    expect([401, 403], shown).not.toContain(response.status);
    expect(response.body?.error?.code, shown).not.toBe("INTERNAL");
    if (success) expect(response.status, shown).toBeLessThan(300);
    return;
  }
  const errors: { extensions?: { code?: string; status?: number } }[] = response.body?.errors ?? [];
  expect(
    errors.filter(
      (error) =>
        error.extensions?.status === 401 || error.extensions?.status === 403 || error.extensions?.code === "INTERNAL",
    ),
    shown,
  ).toEqual([]);
  if (success) expect(errors, shown).toEqual([]);
}

async function runCase(fx: SecurityFixtures, target: SecurityTarget, securityCase: SecurityCase): Promise<void> {
  const headers = await securityCase.headers(fx);
  const caller = (await securityCase.inputsFor?.(fx)) ?? headers;
  if (securityCase.expected === "allowed") {
    const response = await call(fx, target, headers, false, caller);
    rememberReturnedSecrets(response.body);
    return expectNotRefused(target, response);
  }
  // Inputs (a fresh object to act on) are prepared by `call` before the request; prepare them here so the
  // comparison window holds only the refused request.
  const prepared: SecurityTarget = isRest(target)
    ? {
        ...target,
        params: constant(await target.params?.(fx, caller)),
        body: constant(await target.body?.(fx, caller)),
        query: constant(await target.query?.(fx)),
      }
    : {
        ...target,
        variables: constant(await target.variables?.(fx, caller)),
        invalidVariables: constant(await target.invalidVariables?.(fx, caller)),
      };
  const before = await rowsWritten(fx.t);
  const response = await call(fx, prepared, headers, securityCase.invalidInput);
  expectRefusal(target, response, securityCase.expected);
  expect(await rowsWritten(fx.t), "a refused call wrote to the database").toBe(before);
}

function constant<T>(value: T | undefined): (() => T) | undefined {
  return value === undefined ? undefined : () => value;
}

// ---------------------------------------------------------------------------------------------------------
// The suite

/**
 * Registers, for every target, one test per case (plus, for GraphQL, the check that the declared
 * capabilities are what schema.graphql's @auth says). `app` returns the file's shared app, started with
 * SECURITY_SUITE_ENV in the file's beforeAll.
 */
export function securitySuite(
  app: () => TestApp,
  targets: readonly SecurityTarget[],
  options: { schema: () => Promise<GraphQLSchema>; adminSchema: () => Promise<GraphQLSchema> },
): void {
  let fx: SecurityFixtures;
  let schema: GraphQLSchema;
  let adminSchema: GraphQLSchema;
  describe("shared security suite", () => {
    beforeAll(async () => {
      await countWrites(app());
      fx = await createSecurityFixtures(app());
      schema = await options.schema();
      adminSchema = await options.adminSchema();
    });

    // The first target of each transport takes every credential defect; the others one probe of each kind.
    const fullyProbed = new Set([targets.find(isRest), targets.find((target) => !isRest(target))]);
    for (const target of targets) {
      describe(targetName(target), () => {
        if (!isRest(target)) {
          it(`declares what its fields' @auth requires (${target.capabilities.join(", ")})`, () => {
            const served = target.endpoint === "/admin/graphql" ? adminSchema : schema;
            const { selected, required, errors } = inspectDocument(served, target.document);
            expect(errors).toEqual([]);
            expect(selected).toContain(target.field);
            expect([...required].sort()).toEqual([...target.capabilities].sort());
          });
        }
        for (const securityCase of securityCases(target, fullyProbed.has(target))) {
          const outcome =
            securityCase.expected === "allowed"
              ? "not refused by authentication"
              : `${CONTRACT_STATUS[securityCase.expected]} ${securityCase.expected}`;
          it(`${securityCase.name} -> ${outcome}`, () => runCase(fx, target, securityCase));
        }
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// Completeness

/** Fields a GraphQL document selects (`Type.field`) and the union of their @auth requirements. */
function inspectDocument(schema: GraphQLSchema, document: string) {
  const ast = parse(document);
  const errors = validate(schema, ast).map((error) => error.message);
  const typeInfo = new TypeInfo(schema);
  const selected = new Set<string>();
  const required = new Set<Capability>();
  visit(
    ast,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (!parent || !field || field.name.startsWith("__")) return;
        selected.add(`${parent.name}.${field.name}`);
        for (const capability of (getDirective(schema, field, "auth")?.[0]?.requires as Capability[] | undefined) ?? [])
          required.add(capability);
      },
    }),
  );
  return { selected: [...selected], required, errors };
}

/**
 * Coordinates the registry must cover: every Query and Mutation field, and every other field carrying
 * @auth that a query or mutation can reach (subscriptions are out of scope: a type only they reach, such as
 * RampEvent, is covered over graphql-ws by ramp-subscriptions.test.ts), minus the exempted ones.
 */
export function graphQLCoordinatesToCover(schema: GraphQLSchema, exempt: readonly string[]): string[] {
  const roots = [schema.getQueryType(), schema.getMutationType()].filter((root) => root !== null && root !== undefined);
  const reachable = new Set<string>();
  const reach = (type: GraphQLNamedType) => {
    if (reachable.has(type.name)) return;
    reachable.add(type.name);
    if (isObjectType(type) || isInterfaceType(type))
      for (const field of Object.values(type.getFields())) reach(getNamedType(field.type));
    if (isInterfaceType(type) || isUnionType(type))
      for (const member of isUnionType(type) ? type.getTypes() : schema.getPossibleTypes(type)) reach(member);
  };
  roots.forEach(reach);
  const rootNames = new Set(roots.map((root) => root.name));
  const coordinates: string[] = [];
  for (const name of reachable) {
    const type = schema.getType(name);
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (rootNames.has(type.name) || getDirective(schema, field, "auth")?.length)
        coordinates.push(`${type.name}.${field.name}`);
    }
  }
  return coordinates.filter((coordinate) => !exempt.includes(coordinate)).sort();
}

/** Every `METHOD /path` of the router, path parameters written `{name}` as in OpenAPI. */
export function routerRoutes(t: TestApp): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of t.server.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (stack[depth - 1] ?? "") + match[2]!;
    stack.length = depth;
    stack[depth] = path;
    for (const method of match[3]?.split(", ") ?? []) routes.push(`${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
  }
  return routes.sort();
}

/** The GraphQL endpoints: their operations are registered field by field. */
const GRAPHQL_PATHS = ["/graphql", "/admin/graphql"];

/**
 * Routes of the router that authenticate: asked with a malformed secret key they answer 401
 * INVALID_SECRET_KEY (the onRequest hook of every route that declares `config.capabilities`).
 */
export async function authenticatingRoutes(t: TestApp, { skip }: { skip: readonly string[] }): Promise<string[]> {
  const found: string[] = [];
  for (const route of routerRoutes(t)) {
    const [method, path] = route.split(" ") as [string, string];
    // GraphQL operations are covered field by field; HEAD and OPTIONS mirror other routes or answer CORS.
    const graphql = GRAPHQL_PATHS.includes(path);
    if (method === "HEAD" || method === "OPTIONS" || path.includes("*") || graphql || skip.includes(route)) continue;
    const url = path.replace(/\{\w+\}/g, () => randomUUID());
    const response = await t.request(method, url, {
      headers: { "x-api-key": "sk_test_short" },
      ...(["POST", "PUT", "PATCH"].includes(method) && { body: {} }),
    });
    if (response.status === 401 && response.body?.error?.code === "INVALID_SECRET_KEY") found.push(route);
  }
  return found.sort();
}

/** Every `METHOD /path` of the OpenAPI document served at /v1/openapi.json. */
export async function documentedRoutes(t: TestApp): Promise<string[]> {
  const document = await t.request("GET", "/v1/openapi.json");
  expect(document.status).toBe(200);
  return Object.entries(document.body.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}
