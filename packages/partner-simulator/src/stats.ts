import { PARTNERS, type PartnerName } from "./faults.js";

export interface PartnerStats {
  /** Calls per route template, e.g. `POST /v2/account/tickets`. */
  calls: Record<string, number>;
  /**
   * Money steps executed, by identity (spec decision 8). A step done twice reads 2 here: the figure a fault test
   * holds at 1 per identity.
   */
  moneySteps: Record<string, number>;
  /**
   * Second attempts at a money step the partner refused, by identity: nothing was executed. Not a fault by itself:
   * an Alfredpay client whose answer was lost finds its order by sending again (the 409 names it), so each such
   * lookup counts one here; an Avenia client looks its tickets up by listing, so for Avenia it reads 0.
   */
  duplicateMoneySteps: Record<string, number>;
  callbacks: {
    /** Deliveries the receiver answered 2xx. */
    sent: number;
    dropped: number;
    /** Extra copies delivered. */
    duplicated: number;
    /** Delivery attempts that got no 2xx answer. */
    failed: number;
  };
}

export type SimulatorStats = Record<PartnerName, PartnerStats>;

export function emptyStats(): SimulatorStats {
  const entries = PARTNERS.map((partner) => [partner, emptyPartnerStats()]);
  return Object.fromEntries(entries) as SimulatorStats;
}

function emptyPartnerStats(): PartnerStats {
  return {
    calls: {},
    moneySteps: {},
    duplicateMoneySteps: {},
    callbacks: { sent: 0, dropped: 0, duplicated: 0, failed: 0 },
  };
}

export function countIn(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
