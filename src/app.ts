import { join } from "node:path";
import type { Logger } from "pino";
import { AdminService } from "./admin/service.js";
import { AuditEvents } from "./audit/service.js";
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
import { IdempotencyService } from "./idempotency/service.js";
import { IdentityService } from "./identity/service.js";
import { BrazilOnboarding } from "./onboarding/brazil.js";
import { KycService } from "./kyc/service.js";
import { createMailer } from "./mail/mailer.js";
import { ManagedProfileService } from "./managed-profiles/service.js";
import { NodeService } from "./nodes/service.js";
import { Metrics } from "./metrics.js";
import { OnboardingService } from "./onboarding/service.js";
import { InitialKycAttempts } from "./onboarding/kyc-attempts.js";
import { PartnerCallbackService } from "./partner-callbacks/service.js";
import { ProfileService } from "./profiles/service.js";
import type { RampProvider } from "./providers/ramp-port.js";
import { KycReconciler } from "./kyc/reconciler.js";
import { PricingAssignments } from "./quotes/pricing-assignments.js";
import { QuoteService } from "./quotes/service.js";
import { RampProcessor } from "./ramps/processor.js";
import { RampService } from "./ramps/service.js";
import { RampViewCache } from "./ramps/view-cache.js";
import { Caches } from "./cache/caches.js";
import { connectPartners } from "./wiring/partners.js";
import { openRepositories } from "./wiring/repositories.js";
import { retentionWorker } from "./wiring/retention.js";
import type { RetentionWorker } from "./workers/retention.js";
import { createRateLimits, type RateLimits } from "./rate-limits/limiter.js";
import { postgresWindowCounts } from "./rate-limits/repo.js";
import { RecipientService } from "./recipients/service.js";
import { deliveryBacklog, enqueueDeliveries } from "./webhooks/delivery-repo.js";
import { WebhookDeliveryWorker } from "./webhooks/delivery-worker.js";
import { WebhookSender } from "./webhooks/sender.js";
import { SigningKeyService } from "./webhooks/signing.js";
import { WebhookService } from "./webhooks/service.js";
import { systemResolver, type HostResolver } from "./webhooks/url-policy.js";
import { WidgetSessionService } from "./widget-sessions/service.js";
import { FileUploadStorage } from "./uploads/storage.js";
import { UploadService } from "./uploads/service.js";
import { DomesticKycFiles } from "./kyc/domestic-files.js";

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
  caches: Caches;
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
  const repositories = openRepositories(database);
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
  const caches = new Caches(bus, config.cacheTtlMs);
  const verifier = new CredentialVerifier(repositories.credentials, caches, {
    environment: config.rampEnvironment,
    flushIntervalMs: config.lastUsedFlushIntervalMs,
    log,
  });

  const profiles = new ProfileService(repositories.profiles, caches);
  const credentials = new CredentialService(repositories.credentials, bus, caches, config.rampEnvironment, profiles);
  const managedProfiles = new ManagedProfileService(repositories.managedProfiles, caches, credentials, profiles);
  const delegation = new Delegation(managedProfiles, caches);
  const partners = connectPartners(config, db, log, seams);
  const kyc = new KycService(
    repositories.kyc,
    caches,
    partners.kyc,
    delegation,
    profiles,
    config.ramps.kycCheckIntervalMs,
  );
  const kycReconciler = new KycReconciler(
    repositories.kyc,
    kyc,
    config.ramps.kycCheckIntervalMs,
    config.ramps.processorIntervalMs,
    log,
  );
  const outbox = new OutboxSignal(bus, log);
  const rampEventOutbox = new RampEventOutbox(enqueueDeliveries);
  const fiatAccounts = new FiatAccountService(repositories.fiatAccounts, delegation, kyc, partners.fiatAccounts);
  const idempotency = new IdempotencyService(repositories.idempotency);
  const pricing = new PricingAssignments(repositories.quotes, caches);
  const quotes = new QuoteService(
    repositories.quotes,
    partners.ramps,
    pricing,
    caches,
    config.partners.closedCorridors,
  );
  const widgetSessions = new WidgetSessionService(repositories.widgetSessions, quotes, config.widgetBaseUrl);
  const rampViews = new RampViewCache(caches);
  const ramps = new RampService(
    repositories.ramps,
    partners.ramps,
    kyc,
    delegation,
    fiatAccounts,
    quotes,
    widgetSessions,
    rampEventOutbox,
    outbox,
    rampViews,
    { startWindowMs: config.ramps.startWindowMs },
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
    repositories.uploads,
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
      cacheSizes: () => caches.sizes(),
    },
    log,
  );
  const rampProcessor = new RampProcessor(
    repositories.ramps,
    partners.ramps,
    rampEventOutbox,
    outbox,
    rampViews,
    config.ramps.processorIntervalMs,
    config.ramps.stepTimeoutMs,
    log,
    (outcome, elapsedMs) => metrics.observeRampStepCall(outcome, elapsedMs),
  );
  const partnerCallbacks = new PartnerCallbackService(
    repositories.partnerCallbacks,
    {
      avenia: partners.aveniaCallbackKey,
      alfredpaySecret: partners.alfredpayCallbackSecret,
    },
    log,
    seams.clock,
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
  const retention = retentionWorker(config.retention, writes, database.runAlone, log, seams);
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
    caches,
    authenticator: new Authenticator(
      verifier,
      new SessionVerifier(repositories.identity, accessTokens, caches),
      config.operatorToken,
    ),
    identity: new IdentityService(
      repositories.identity,
      profiles,
      mailer,
      accessTokens,
      caches,
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
    admin: new AdminService(
      repositories.admin,
      new AuditEvents(repositories.audit),
      caches,
      credentials,
      pricing,
      profiles,
      managedProfiles,
    ),
    quotes,
    widgetSessions,
    ramps,
    fiatAccounts,
    onboarding,
    initialKycAttempts: new InitialKycAttempts(repositories.onboarding, quotes, widgetSessions),
    kyc,
    brazilOnboarding: new BrazilOnboarding(kyc, onboarding, idempotency, uploads, partners.kyc),
    uploads,
    domesticKycFiles: new DomesticKycFiles(repositories.kyc, kyc, uploads),
    idempotency,
    recipients: new RecipientService(repositories.recipients, mailer, kyc, config.jwt.secret, log),
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
        await partners.close();
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
