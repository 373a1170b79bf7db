import type { Logger } from "pino";
import { deadline } from "../deadline.js";
import { PollLoop } from "../workers/poll-loop.js";
import type { KycRepository } from "./repo.js";
import type { KycService } from "./service.js";

const BATCH = 100;
/** A partner's answer not given by then is abandoned; the case is checked again at its next check. */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * Follows the partners' KYC/KYB attempts: a stored callback brings its case's check forward, and every case whose
 * check is due is asked about at the partner (KycService.observe applies the answer, forward only). A lost callback
 * therefore delays a decision by at most the check interval (KYC_CHECK_INTERVAL_MS) plus a pass. A check is claimed
 * by moving the case's next check on first, so with several instances each due check is made once.
 */
export class KycReconciler {
  private readonly loop: PollLoop;

  constructor(
    private readonly repository: KycRepository,
    private readonly kyc: KycService,
    private readonly checkIntervalMs: number,
    intervalMs: number,
    private readonly log: Logger,
  ) {
    this.loop = new PollLoop(() => this.tick(), intervalMs, log, "KYC reconciliation pass failed");
  }

  get active(): boolean {
    return this.loop.active;
  }

  start(): void {
    this.loop.start(0);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A callback was stored: the next pass applies it now rather than after the interval. */
  wake(): void {
    this.loop.wake();
  }

  /** One pass: apply the stored callbacks, then check every case that is due. */
  async tick(now = new Date()): Promise<void> {
    while ((await this.repository.applyKycCallbacks(now, BATCH)) === BATCH);
    for (const due of await this.repository.findCasesDueForCheck(now, BATCH)) {
      const claimedUntil = new Date(Date.now() + this.checkIntervalMs);
      if (
        !(await this.repository.updateCaseIf(
          { id: due.id, nextCheckAt: due.nextCheckAt },
          { nextCheckAt: claimedUntil },
        ))
      )
        continue;
      const checkDeadline = deadline(CHECK_TIMEOUT_MS);
      try {
        await this.kyc.observe({ ...due, nextCheckAt: claimedUntil }, checkDeadline.signal);
      } catch (error) {
        // The claim stands as the next check: the partner is asked again then.
        this.log.warn({ err: error, kycCaseId: due.id }, "the partner gave no answer on a KYC attempt; asking later");
      } finally {
        checkDeadline.release();
      }
    }
  }
}
