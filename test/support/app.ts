import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { OutgoingHttpHeaders } from "node:http";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { createApp, type App, type AppSeams } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { loggerOptions } from "../../src/log.js";
import { buildServer } from "../../src/server.js";
import { freshDatabase, type TestDatabase } from "./database.js";
import { recordHttpOperation } from "./graphql-documents.js";
import { LOG_DIR, rememberSecret } from "./secrets.js";
import { startSmtpCapture, type SmtpCapture } from "./smtp.js";
import { completeKyc, type Send } from "./kyc.js";
import { startTestPartners, type TestPartners } from "./partner-simulator.js";
import type { Corridor, CustomerType } from "../../src/reference-data/corridors.js";

export interface HttpResponse<T = any> {
  status: number;
  headers: OutgoingHttpHeaders;
  body: T;
}

export interface TestApp {
  app: App;
  server: FastifyInstance;
  smtp: SmtpCapture;
  database: TestDatabase;
  /** The partners this app talks to (the simulator, in the test's process); an error when it has none configured. */
  readonly partners: TestPartners;
  /** Authorization for the operator surface (/v1/admin/*, operator GraphQL operations). */
  operatorHeaders: Record<string, string>;
  request<T = any>(
    method: string,
    url: string,
    options?: {
      headers?: Record<string, string>;
      body?: unknown;
      /** Sent as it is (a malformed body, a file's bytes) instead of `body` as JSON. */
      rawBody?: string | Buffer;
      /** The client address the server sees (per-IP limits); 127.0.0.1 by default. */
      remoteAddress?: string;
    },
  ): Promise<HttpResponse<T>>;
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<HttpResponse<T>>;
  /** An operation on the operator's endpoint, /admin/graphql: with the operator token unless `headers` say otherwise. */
  adminGraphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<HttpResponse<T>>;
  /** `request` as the KYC helpers call it (test/support/kyc.ts): a Buffer body is a file's bytes, sent as they are. */
  send: Send;
  /** Signs in through request-otp and verify-otp; returns the session. */
  signIn(
    email?: string,
  ): Promise<{ accessToken: string; refreshToken: string; profileId: string; headers: Record<string, string> }>;
  /** Creates a credential for a signed-in session; returns its values. */
  createCredential(
    sessionHeaders: Record<string, string>,
    body?: Record<string, unknown>,
  ): Promise<{ id: string; publicKey: string; secretKey: string }>;
  /** A newly signed-in profile with one credential: its session's, secret key's and public key's headers. */
  newProfile(): Promise<SignedInProfile>;
  /** `newProfile`, enabled by the operator as an active manager of the corridors (default BR). */
  newManager(allowedCorridors?: Corridor[]): Promise<SignedInProfile>;
  /** A managed child the manager creates (an individual unless said), with a secret key of its own (`own`). */
  newChild(manager: SignedInProfile, customerType?: CustomerType): Promise<ManagedChild>;
  /**
   * Runs `work` with the KYC reconciler following the partners' decisions (as the workers do), unless it runs already.
   * It runs only then: its passes would be counted against whatever request a test counts the statements of.
   */
  followingKyc<T>(work: () => Promise<T>): Promise<T>;
  /** Takes the subject the headers act as through KYC (KYB for a business) in the corridors (default BR), through the API. */
  completeKyc(
    headers: Record<string, string>,
    corridors?: Corridor[],
    customerType?: CustomerType,
    options?: { awaitDecision?: boolean },
  ): Promise<{ brTaxId?: string }>;
  close(): Promise<void>;
}

export interface SignedInProfile {
  profileId: string;
  session: Record<string, string>;
  secret: Record<string, string>;
  publicKey: Record<string, string>;
}

interface ManagedChild {
  profileId: string;
  own: Record<string, string>;
}

let instances = 0;

/**
 * The real application in-process on a fresh database of the project's engine, with a real SMTP server
 * and logs written to test-output/logs for the secret audit. Requests go through Fastify's inject.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    /** Share another app's database (a second instance); it stays owned by that app. */
    database?: TestDatabase;
    /**
     * Share another app's partners (a second instance on its database talks to the same ones; they stay its), or
     * none (null): no partner is configured. A production app has none either: production takes only https partners.
     */
    partners?: TestPartners | null;
    /** Run the background workers (ramp processing), with sandbox steps of SANDBOX_STEP_DELAY_MS (default 20 ms here). */
    workers?: boolean;
    /** Stand-ins for name resolution, trusted CAs and the clock (webhook delivery tests). */
    seams?: AppSeams;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase());
  const smtp = await startSmtpCapture();
  const partners =
    options.partners === undefined && env.NODE_ENV !== "production" ? await startTestPartners(env) : options.partners;
  const config = loadConfig({
    ...partners?.env,
    DATA_DIR: database.dataDir,
    SMTP_URL: smtp.url,
    OTP_RESEND_COOLDOWN_SECONDS: "0",
    // Tests sign in many profiles from one address; the limits have tests of their own.
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "10000",
    SANDBOX_STEP_DELAY_MS: "20",
    // The partners' KYC decisions are observed a few passes after they are made (PARTNER_SIM_KYC_DECISION_MS, 0
    // here: tests that need a case in review set a delay of their own).
    KYC_CHECK_INTERVAL_MS: "20",
    RAMP_CHECK_INTERVAL_MS: "20",
    RAMP_PROCESSOR_INTERVAL_MS: "10",
    // Retention passes run when a test asks (app.retention.runOnce()), never in the middle of another test's counts.
    RETENTION_INTERVAL_MS: "0",
    LOG_LEVEL: "info",
    ...(database.url && { DATABASE_URL: database.url }),
    ...env,
  });
  mkdirSync(LOG_DIR, { recursive: true });
  const log = pino(
    loggerOptions(config.logLevel),
    pino.destination({ dest: join(LOG_DIR, `integration-${process.pid}-${++instances}.log`), sync: true }),
  );
  // Rate-limit counts are shared between instances (PostgreSQL) where a test asks: a flush is a statement no
  // request made, and would land in whatever request another test is counting the statements of.
  const app = await createApp(config, log, { rateLimitFlushMs: 3_600_000, ...options.seams });
  const server = await buildServer(app);
  await server.ready();
  if (options.workers) await app.startWorkers();

  const request: TestApp["request"] = async (method, url, options = {}) => {
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    recordHttpOperation(method, url, options.rawBody ?? options.body);
    const response = await server.inject({
      method: method as "GET",
      url,
      ...(options.remoteAddress && { remoteAddress: options.remoteAddress }),
      headers: { ...(hasBody && { "content-type": "application/json" }), ...options.headers },
      ...(hasBody && { payload: options.rawBody ?? JSON.stringify(options.body) }),
    });
    const text = response.body;
    // JSON answers parsed; any other (the operator's Prometheus text) as it is.
    const json = /json/.test(String(response.headers["content-type"] ?? ""));
    return {
      status: response.statusCode,
      headers: response.headers,
      body: text ? (json ? JSON.parse(text) : text) : undefined,
    };
  };

  const send: Send = (method, path, headers, body) =>
    request(method, path, { headers, ...(Buffer.isBuffer(body) ? { rawBody: body } : { body }) });

  rememberSecret(config.operatorToken);
  let kycFollowers = 0;
  let startedForFollowers = false;
  const testApp: TestApp = {
    app,
    operatorHeaders: { authorization: `Bearer ${config.operatorToken}` },
    server,
    smtp,
    database,
    get partners() {
      if (!partners) throw new Error("this test app has no partners configured");
      return partners;
    },
    request,
    graphql: (query, variables, headers) => request("POST", "/graphql", { body: { query, variables }, headers }),
    adminGraphql: (query, variables, headers = testApp.operatorHeaders) =>
      request("POST", "/admin/graphql", { body: { query, variables }, headers }),
    send,
    async signIn(email = `user-${Math.random().toString(36).slice(2)}@example.com`) {
      const requested = await request("POST", "/v1/auth/request-otp", { body: { email } });
      if (requested.status !== 200) throw new Error(`request-otp: ${JSON.stringify(requested.body)}`);
      const token = await smtp.nextCode(email);
      const verified = await request("POST", "/v1/auth/verify-otp", { body: { email, token } });
      if (verified.status !== 200) throw new Error(`verify-otp: ${JSON.stringify(verified.body)}`);
      const { access_token, refresh_token, user_id } = verified.body;
      rememberSecret(access_token);
      rememberSecret(refresh_token);
      return {
        accessToken: access_token,
        refreshToken: refresh_token,
        profileId: user_id,
        headers: { authorization: `Bearer ${access_token}` },
      };
    },
    completeKyc: (headers, corridors = ["BR"], customerType, options) =>
      testApp.followingKyc(() => completeKyc(send, headers, corridors, customerType, options)),
    async followingKyc(work) {
      // Concurrent callers share one run of the reconciler: the last to finish stops it, unless it ran before the
      // first began (the workers, or a test file that keeps it running).
      if (kycFollowers++ === 0 && !app.kycReconciler.active) {
        app.kycReconciler.start();
        startedForFollowers = true;
      }
      try {
        return await work();
      } finally {
        if (--kycFollowers === 0 && startedForFollowers) {
          startedForFollowers = false;
          await app.kycReconciler.stop();
        }
      }
    },
    async createCredential(sessionHeaders, body = {}) {
      const created = await request("POST", "/v1/api-credentials", { headers: sessionHeaders, body });
      if (created.status !== 201) throw new Error(`create credential: ${JSON.stringify(created.body)}`);
      rememberSecret(created.body.secretKey);
      return { id: created.body.id, publicKey: created.body.publicKey, secretKey: created.body.secretKey };
    },
    async newProfile() {
      const session = await testApp.signIn();
      const credential = await testApp.createCredential(session.headers);
      return {
        profileId: session.profileId,
        session: session.headers,
        secret: { "x-api-key": credential.secretKey },
        publicKey: { "x-public-key": credential.publicKey },
      };
    },
    async newManager(allowedCorridors = ["BR"]) {
      const manager = await testApp.newProfile();
      const enabled = await request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: testApp.operatorHeaders,
        body: { allowedCorridors, isActive: true },
      });
      if (enabled.status !== 201) throw new Error(`enable manager: ${JSON.stringify(enabled.body)}`);
      return manager;
    },
    async newChild(manager, customerType = "individual") {
      const created = await request("POST", "/v1/managed-profiles", {
        headers: manager.secret,
        body: {
          externalSubjectId: `subject-${randomUUID()}`,
          contactEmail: `child-${randomUUID()}@example.com`,
          customerType,
        },
      });
      if (created.status !== 201) throw new Error(`create child: ${JSON.stringify(created.body)}`);
      const { profileId } = created.body.managedProfile;
      const key = await request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, {
        headers: manager.secret,
        body: {},
      });
      if (key.status !== 201) throw new Error(`child credential: ${JSON.stringify(key.body)}`);
      return { profileId, own: { "x-api-key": rememberSecret(key.body.secretKey) } };
    },
    async close() {
      await server.close();
      await app.close();
      if (options.partners === undefined) await partners?.simulator.stop();
      await smtp.close();
      if (!options.database) await database.drop();
    },
  };
  return testApp;
}
