import { join } from "node:path";
import type { Logger } from "pino";
import { AdminService } from "./admin/service.js";
import { Authenticator } from "./auth/authenticate.js";
import { Delegation } from "./auth/delegation.js";
import { CredentialVerifier } from "./credentials/verifier.js";
import { SessionVerifier } from "./identity/session-verifier.js";
import { AccessTokens } from "./auth/tokens.js";
import type { Config } from "./config.js";
import { CredentialService } from "./credentials/service.js";
import { openDatabase, type Db } from "./db/client.js";
import type { Reads, StatementCounter, Writes } from "./db/statements.js";
import { migrate } from "./db/migrate.js";
import { createInProcessBus, createPostgresBus, type EventBus } from "./events/bus.js";
import { RampEventOutbox } from "./events/outbox.js";
import { OutboxSignal } from "./events/outbox-signal.js";
import { RampEventFeed } from "./events/ramp-feed.js";
import { FiatAccountService } from "./fiat-accounts/service.js";
import { pruneSettledRecords } from "./idempotency/repo.js";
import { IdempotencyService } from "./idempotency/service.js";
import { pruneEmptySessionFamilies, pruneEndedRefreshTokens, pruneExpiredChallenges } from "./identity/repo.js";
import { IdentityService } from "./identity/service.js";
import { BrazilOnboarding } from "./onboarding/brazil.js";
import { KycService } from "./kyc/service.js";
import { createMailer } from "./mail/mailer.js";
import { ManagedProfileService } from "./managed-profiles/service.js";
import { NodeService } from "./nodes/service.js";
import { Metrics } from "./metrics.js";
import { OnboardingService } from "./onboarding/service.js";
import { InitialKycAttempts } from "./onboarding/kyc-attempts.js";
import { pruneAppliedCallbacks } from "./partner-callbacks/repo.js";
import { PartnerCallbackService } from "./partner-callbacks/service.js";
import { AveniaPublicKeySource } from "./providers/avenia/client.js";
import { AveniaCallbackKey } from "./providers/avenia/signing.js";
import { ProfileService } from "./profiles/service.js";
import type { RampProvider } from "./providers/ramp-port.js";
import { SandboxRampProvider } from "./providers/sandbox.js";
import { AlfredpayClient } from "./providers/alfredpay/client.js";
import { AlfredpayFiatAccounts } from "./providers/alfredpay/fiat-accounts.js";
import { AlfredpayKyc } from "./providers/alfredpay/kyc.js";
import { AveniaClient } from "./providers/avenia/client.js";
import { AveniaKyc } from "./providers/avenia/kyc.js";
import { PartnerFiatAccounts } from "./providers/partner-fiat-accounts.js";
import { PartnerKyc } from "./providers/partner-kyc.js";
import { AlfredpayRamps } from "./providers/alfredpay/ramps.js";
import { AveniaRamps } from "./providers/avenia/ramps.js";
import { MoneyCommandLedger } from "./partner-commands/ledger.js";
import { CorridorRamps, partnerRampsOf } from "./providers/corridor-ramps.js";
import { KycReconciler } from "./kyc/reconciler.js";
import { PricingAssignments } from "./quotes/pricing-assignments.js";
import { pruneUnregisteredQuotes } from "./quotes/repo.js";
import { QuoteService } from "./quotes/service.js";
import { RampProcessor } from "./ramps/processor.js";
import { RampService } from "./ramps/service.js";
import { RampViewCache } from "./ramps/view-cache.js";
import { createRateLimits, type RateLimits } from "./rate-limits/limiter.js";
import { postgresWindowCounts } from "./rate-limits/repo.js";
import { pruneExpiredInvitations } from "./recipients/repo.js";
import { RecipientService } from "./recipients/service.js";
import { deliveryBacklog, enqueueDeliveries, pruneSettledDeliveries } from "./webhooks/delivery-repo.js";
import { WebhookDeliveryWorker } from "./webhooks/delivery-worker.js";
import { WebhookSender } from "./webhooks/sender.js";
import { SigningKeyService } from "./webhooks/signing.js";
import { WebhookService } from "./webhooks/service.js";
import { systemResolver, type HostResolver } from "./webhooks/url-policy.js";
import { WidgetSessionService } from "./widget-sessions/service.js";
import { FileUploadStorage } from "./uploads/storage.js";
import { UploadService } from "./uploads/service.js";
import { DomesticKycFiles } from "./kyc/domestic-files.js";
import { RetentionWorker } from "./workers/retention.js";

/** Everything the adapters (REST, GraphQL, WebSocket, CLI) call: framework-free services and their wiring. */
export interface App {
  config: Config;
  log: Logger;
  db: Db;
  /** The hot reads, on prepared statements (see db/statements.ts). */
  reads: Reads;
  /** The hot writes, on prepared statements (see db/statements.ts). */
  writes: Writes;
  /** Statements sent to the database so far (tests pin per-request budgets with it). */
  statements: StatementCounter;
  bus: EventBus;
  authenticator: Authenticator;
  identity: IdentityService;
  credentials: CredentialService;
  profiles: ProfileService;
  delegation: Delegation;
  managedProfiles: ManagedProfileService;
  /** Which kind of the subject's objects an id names (GraphQL's node(id)). */
  nodes: NodeService;
  admin: AdminService;
  quotes: QuoteService;
  widgetSessions: WidgetSessionService;
  ramps: RampService;
  fiatAccounts: FiatAccountService;
  /** Provider customers and their KYC/KYB cases. */
  kyc: KycService;
  /** Subaccounts and KYC/KYB in Brazil (`/v1/brl/*`). */
  brazilOnboarding: BrazilOnboarding;
  /** Documents subjects upload for their KYC/KYB, through URLs of their own. */
  uploads: UploadService;
  /** Files of API KYC/KYB submissions in AR, CO and MX, sent with the request. */
  domesticKycFiles: DomesticKycFiles;
  /** First answers of requests made with an Idempotency-Key. */
  idempotency: IdempotencyService;
  /** Sender-side recipients and their invitations. */
  recipients: RecipientService;
  onboarding: OnboardingService;
  /** Where subjects started Brazilian KYC from (a quote, a widget session). */
  initialKycAttempts: InitialKycAttempts;
  rampProcessor: RampProcessor;
  /** Follows the partners' KYC/KYB attempts (their callbacks, and checks when due) to their decisions. */
  kycReconciler: KycReconciler;
  /** Partners' callbacks (`/v1/webhooks/avenia`, `/v1/webhooks/alfredpay`): verified, then stored once. */
  partnerCallbacks: PartnerCallbackService;
  webhooks: WebhookService;
  /** The webhook signing key (loaded, or created once, before the app is returned). */
  signingKeys: SigningKeyService;
  /** New outbox events, as they are written by any instance (GraphQL subscriptions read it). */
  rampEvents: RampEventFeed;
  /** Sends the queued webhook deliveries. */
  webhookDelivery: WebhookDeliveryWorker;
  /** Prunes what can no longer matter (settled deliveries, ended sign-ins, expired quotes, ...) on a schedule. */
  retention: RetentionWorker;
  /** The operator's metrics (`GET /metrics`). */
  metrics: Metrics;
  /** Request budgets per client IP, per calling profile and for sign-in; on PostgreSQL, shared by every instance. */
  rateLimits: RateLimits;
  /**
   * Starts the background workers (ramp processing, KYC reconciliation, the event feed, webhook delivery, retention);
   * the CLI never does.
   */
  startWorkers(): Promise<void>;
  /** Database reachable (readiness). */
  ping(): Promise<void>;
  /** Flushes buffered writes and closes connections; idempotent. */
  close(): Promise<void>;
}

/**
 * What tests put in place of the outside world: name resolution, the CAs trusted for webhook targets, the ramp
 * partner (a slow or failing one) and the clock; and retention batches small enough that a test's backlog takes several.
 */
export interface AppSeams {
  resolveHost?: HostResolver;
  rampProvider?: RampProvider;
  webhookCa?: string;
  clock?: () => Date;
  retentionBatchSize?: number;
  /** How often this instance shares its rate-limit counts (PostgreSQL); long, to keep it out of a test's statement counts. */
  rateLimitFlushMs?: number;
}

/** A callback waits for Avenia's key: well within the partner's own wait for our answer. */
const AVENIA_KEY_TIMEOUT_MS = 5_000;

export async function createApp(config: Config, log: Logger, seams: AppSeams = {}): Promise<App> {
  const applied = await migrate(config.database, {
    timeoutMs: config.databaseConnectTimeoutMs,
    onRetry: (retry) => log.warn(retry, "the database is not reachable yet; retrying"),
  });
  if (applied.length) log.info({ migrations: applied }, "database migrations applied");
  const { allowPrivateNetworks } = config.webhooks;
  if (allowPrivateNetworks.length)
    log.info({ allowPrivateNetworks }, "webhook targets allowed in private networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS)");

  const database = await openDatabase(config.database, (message) => log.warn(message));
  const { db, reads, writes } = database;
  const bus =
    config.database.engine === "postgresql"
      ? await createPostgresBus(config.database.url, log)
      : createInProcessBus(log);
  const signingKeys = new SigningKeyService(
    db,
    bus,
    { encryptionKey: config.webhooks.signingKeyEncryptionKey, configuredPrivateKey: config.webhooks.signingPrivateKey },
    log,
  );
  // An unreadable key (wrong SIGNING_KEY_ENCRYPTION_KEY, bad SIGNING_PRIVATE_KEY) stops start-up here.
  await signingKeys.start().catch(async (error: unknown) => {
    await bus.close();
    await database.close();
    throw error;
  });
  const mailer = createMailer(config.mail, log);
  const accessTokens = new AccessTokens(config.jwt);
  const verifier = new CredentialVerifier(db, reads, bus, {
    environment: config.rampEnvironment,
    cacheTtlMs: config.cacheTtlMs,
    flushIntervalMs: config.lastUsedFlushIntervalMs,
    log,
  });

  const profiles = new ProfileService(db, reads, bus, config.cacheTtlMs);
  const credentials = new CredentialService(db, reads, bus, config.rampEnvironment, profiles, config.cacheTtlMs);
  const managedProfiles = new ManagedProfileService(db, bus, credentials, profiles);
  const delegation = new Delegation(managedProfiles, bus, config.cacheTtlMs);
  const { avenia, alfredpay } = config.partners;
  // A partner without settings has no client: what it would serve answers PROVIDER_UNAVAILABLE.
  const aveniaClient =
    avenia.baseUrl && avenia.apiKey && avenia.privateKeyPem
      ? new AveniaClient({
          baseUrl: avenia.baseUrl,
          apiKey: avenia.apiKey,
          privateKeyPem: avenia.privateKeyPem,
          logger: log,
        })
      : undefined;
  const alfredpayClient =
    alfredpay.baseUrl && alfredpay.apiKey && alfredpay.apiSecret
      ? new AlfredpayClient({
          baseUrl: alfredpay.baseUrl,
          apiKey: alfredpay.apiKey,
          apiSecret: alfredpay.apiSecret,
          logger: log,
        })
      : undefined;
  const rampProvider =
    seams.rampProvider ??
    new CorridorRamps(
      new SandboxRampProvider(config.ramps.sandboxStepDelayMs),
      partnerRampsOf(config.partners.corridors, {
        ...(aveniaClient && {
          Avenia: new AveniaRamps(
            aveniaClient,
            new MoneyCommandLedger(db, log, { callTimeoutMs: config.ramps.stepTimeoutMs }),
          ),
        }),
        ...(alfredpayClient && { Alfredpay: new AlfredpayRamps(alfredpayClient) }),
      }),
      config.ramps.partnerCheckIntervalMs,
      config.partners.closedCorridors,
      {
        refreshMs: config.ramps.ratesRefreshMs,
        maxAgeMs: config.ramps.ratesMaxAgeMs,
        timeoutMs: config.ramps.stepTimeoutMs,
        log,
      },
    );
  const kycProvider = new PartnerKyc(
    config.partners.corridors,
    aveniaClient && new AveniaKyc(aveniaClient),
    alfredpayClient && new AlfredpayKyc(alfredpayClient),
  );
  const kyc = new KycService(
    db,
    reads,
    bus,
    kycProvider,
    delegation,
    profiles,
    config.cacheTtlMs,
    config.ramps.kycCheckIntervalMs,
  );
  const kycReconciler = new KycReconciler(
    db,
    kyc,
    config.ramps.kycCheckIntervalMs,
    config.ramps.processorIntervalMs,
    log,
  );
  const outbox = new OutboxSignal(bus, log);
  const rampEventOutbox = new RampEventOutbox(enqueueDeliveries);
  const fiatAccounts = new FiatAccountService(
    db,
    delegation,
    kyc,
    new PartnerFiatAccounts(config.partners.corridors, alfredpayClient && new AlfredpayFiatAccounts(alfredpayClient)),
  );
  const idempotency = new IdempotencyService(db);
  const pricing = new PricingAssignments(db, reads, bus, config.cacheTtlMs);
  const quotes = new QuoteService(
    reads,
    writes,
    rampProvider,
    pricing,
    config.cacheTtlMs,
    config.partners.closedCorridors,
  );
  const widgetSessions = new WidgetSessionService(db, quotes, config.widgetBaseUrl);
  const rampViews = new RampViewCache(bus, config.cacheTtlMs);
  const ramps = new RampService(
    db,
    reads,
    writes,
    rampProvider,
    kyc,
    delegation,
    fiatAccounts,
    quotes,
    widgetSessions,
    rampEventOutbox,
    outbox,
    rampViews,
    {
      startWindowMs: config.ramps.startWindowMs,
    },
  );
  const onboarding = new OnboardingService(
    kyc,
    delegation,
    ramps,
    managedProfiles,
    config.publicBaseUrl,
    config.partners.closedCorridors,
  );
  const uploads = new UploadService(
    db,
    new FileUploadStorage(join(config.dataDir, "uploads")),
    { secret: config.jwt.secret, publicBaseUrl: config.publicBaseUrl },
    seams.clock,
  );
  const rampEvents = new RampEventFeed(reads, config.ramps.eventPollMs, log);
  rampEvents.listenToAll((entry) => rampViews.forget(entry.rampId));
  const metrics = new Metrics(
    {
      deliveryBacklog: () => deliveryBacklog(reads, seams.clock?.() ?? new Date()),
      unreadFeedEvents: () => rampEvents.unread(),
      feedListeners: () => rampEvents.listenerCount(),
    },
    log,
  );
  const rampProcessor = new RampProcessor(
    reads,
    writes,
    rampProvider,
    rampEventOutbox,
    outbox,
    rampViews,
    config.ramps.processorIntervalMs,
    config.ramps.stepTimeoutMs,
    log,
    (outcome, elapsedMs) => metrics.observeRampStepCall(outcome, elapsedMs),
  );
  // Avenia's callback key comes from its API; the call is a callback's only partner call, and a rare one.
  const aveniaKeys =
    avenia.baseUrl === undefined
      ? undefined
      : new AveniaPublicKeySource({ baseUrl: avenia.baseUrl, logger: log, timeoutMs: AVENIA_KEY_TIMEOUT_MS });
  const { clock } = seams;
  const partnerCallbacks = new PartnerCallbackService(
    db,
    {
      avenia: aveniaKeys && new AveniaCallbackKey(() => aveniaKeys.publicKey(), clock && (() => clock().getTime())),
      alfredpaySecret: alfredpay.callbackSecret,
    },
    log,
    clock,
  );
  const resolve = seams.resolveHost ?? systemResolver;
  const sender = new WebhookSender({
    resolve,
    allowPrivateNetworks,
    timeoutMs: config.webhooks.timeoutMs,
    ca: seams.webhookCa,
  });
  const webhookDelivery = new WebhookDeliveryWorker(
    database,
    (timestamp, rawBody) => signingKeys.sign(timestamp, rawBody),
    sender,
    {
      engine: config.database.engine,
      pollMs: config.webhooks.deliveryPollMs,
      timeoutMs: config.webhooks.timeoutMs,
      concurrency: config.webhooks.deliveryConcurrency,
      concurrencyPerReceiver: config.webhooks.deliveryConcurrencyPerReceiver,
    },
    log,
    (outcome) => metrics.countDeliveryOutcome(outcome),
    seams.clock,
  );
  const ages = config.retention;
  // What each kind keeps, and the repository function that prunes a batch of it. Refresh tokens go before the
  // sign-ins they leave empty.
  const pruned = (
    kind: string,
    retentionMs: number,
    prune: (writes: Writes, before: Date, limit: number) => Promise<number>,
  ) => ({ kind, retentionMs, pruneBatch: (before: Date, limit: number) => prune(writes, before, limit) });
  const retention = new RetentionWorker(
    [
      pruned("webhookDeliveries", ages.deliveryMs, pruneSettledDeliveries),
      pruned("idempotencyRecords", ages.idempotencyMs, pruneSettledRecords),
      pruned("signInCodes", ages.authMs, pruneExpiredChallenges),
      pruned("refreshTokens", ages.authMs, pruneEndedRefreshTokens),
      pruned("sessionFamilies", ages.authMs, pruneEmptySessionFamilies),
      pruned("recipientInvitations", ages.invitationMs, pruneExpiredInvitations),
      pruned("quotes", ages.quoteMs, pruneUnregisteredQuotes),
      pruned("partnerCallbacks", ages.partnerCallbackMs, pruneAppliedCallbacks),
    ],
    database.runAlone,
    { intervalMs: ages.intervalMs, batchSize: seams.retentionBatchSize },
    log,
    seams.clock,
  );
  const rateLimits = createRateLimits(
    config.rateLimits,
    config.database.engine === "postgresql" ? postgresWindowCounts(db, writes) : undefined,
    { log, flushIntervalMs: seams.rateLimitFlushMs },
  );
  let stopListening: (() => void) | undefined;
  let closing: Promise<void> | undefined;
  return {
    config,
    log,
    db,
    reads,
    writes,
    statements: database.statements,
    bus,
    authenticator: new Authenticator(
      verifier,
      new SessionVerifier(reads, accessTokens, bus, config.cacheTtlMs),
      config.operatorToken,
    ),
    identity: new IdentityService(
      db,
      profiles,
      mailer,
      accessTokens,
      bus,
      {
        otpResendCooldownMs: config.otpResendCooldownMs,
        refreshTokenTtlMs: config.refreshTokenTtlMs,
        otpHashSecret: config.jwt.secret,
      },
      log,
    ),
    credentials,
    profiles,
    delegation,
    managedProfiles,
    nodes: new NodeService(reads),
    admin: new AdminService(db, bus, credentials, pricing, profiles, managedProfiles),
    quotes,
    widgetSessions,
    ramps,
    fiatAccounts,
    onboarding,
    initialKycAttempts: new InitialKycAttempts(db, quotes, widgetSessions),
    kyc,
    brazilOnboarding: new BrazilOnboarding(kyc, onboarding, idempotency, uploads, kycProvider),
    uploads,
    domesticKycFiles: new DomesticKycFiles(db, kyc, uploads),
    idempotency,
    recipients: new RecipientService(db, mailer, kyc, config.jwt.secret, log),
    rampProcessor,
    kycReconciler,
    partnerCallbacks,
    webhooks: new WebhookService(db, outbox, { allowPrivateNetworks, resolve }),
    signingKeys,
    rampEvents,
    webhookDelivery,
    retention,
    metrics,
    rateLimits,
    async startWorkers() {
      stopListening ??= outbox.onCommitted(() => {
        rampEvents.wake();
        webhookDelivery.wake();
      });
      rampProcessor.start();
      kycReconciler.start();
      await rampEvents.start();
      webhookDelivery.start();
      retention.start();
    },
    async ping() {
      await db.$queryRawUnsafe("SELECT 1");
    },
    close() {
      closing ??= (async () => {
        stopListening?.();
        await retention.stop();
        await rampProcessor.stop();
        await kycReconciler.stop();
        await rampEvents.stop();
        await webhookDelivery.stop();
        await sender.close();
        await aveniaKeys?.close();
        await aveniaClient?.close();
        await alfredpayClient?.close();
        await verifier.flushLastUses();
        await rateLimits.close();
        signingKeys.close();
        mailer.close();
        await bus.close();
        await database.close();
      })();
      return closing;
    },
  };
}
