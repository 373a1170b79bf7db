import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { RunAlone } from "../db/client.js";
import type { Writes } from "../db/statements.js";
import { pruneSettledRecords } from "../idempotency/repo.js";
import { pruneEmptySessionFamilies, pruneEndedRefreshTokens, pruneExpiredChallenges } from "../identity/repo.js";
import { pruneAppliedCallbacks } from "../partner-callbacks/repo.js";
import { pruneUnregisteredQuotes } from "../quotes/repo.js";
import { pruneExpiredInvitations } from "../recipients/repo.js";
import { pruneSettledDeliveries } from "../webhooks/delivery-repo.js";
import { RetentionWorker } from "../workers/retention.js";

/**
 * What each kind of row keeps, and the repository function that prunes a batch of it, on the worker that runs
 * them. Refresh tokens go before the sign-ins they leave empty.
 */
export function retentionWorker(
  ages: Config["retention"],
  writes: Writes,
  runAlone: RunAlone,
  log: Logger,
  { retentionBatchSize, clock }: { retentionBatchSize?: number; clock?: () => Date },
): RetentionWorker {
  const pruned = (
    kind: string,
    retentionMs: number,
    prune: (writes: Writes, before: Date, limit: number) => Promise<number>,
  ) => ({ kind, retentionMs, pruneBatch: (before: Date, limit: number) => prune(writes, before, limit) });
  return new RetentionWorker(
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
    runAlone,
    { intervalMs: ages.intervalMs, batchSize: retentionBatchSize },
    log,
    clock,
  );
}
