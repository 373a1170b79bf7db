export const PARTNERS = ["avenia", "alfredpay"] as const;
export type PartnerName = (typeof PARTNERS)[number];

/** "after": the operation is executed, then the answer is lost or wrong (the worst case for a client). */
export type FaultMoment = "before" | "after";

export interface CallbackFaults {
  /** Drop this many of the next events (no delivery at all). */
  drop?: number;
  /** Deliver the next event this many extra times. */
  duplicate?: number;
  /** Hold events while set; clearing it delivers the held batch newest first. */
  reorder?: boolean;
  /** Delay every delivery by this much. */
  delayMs?: number;
}

/**
 * Which calls a fault meets: the next `count` of them, or of those to `route` alone (a route template as the stats
 * count calls, e.g. `POST /v2/account/tickets`), so a test can aim at the call that moves money.
 */
interface CallFaultTarget {
  count: number;
  when: FaultMoment;
  route?: string;
}

export interface PartnerFaults {
  latencyMs?: number;
  failNext?: CallFaultTarget & { status: number };
  /** Never answer: the socket is held until the client gives up. */
  timeoutNext?: CallFaultTarget;
  /** Destroy the socket without an answer. */
  resetNext?: CallFaultTarget;
  callbacks?: CallbackFaults;
}

export interface FaultsInput extends PartnerFaults {
  partner: PartnerName;
}

export type CallFault = { kind: "fail"; status: number } | { kind: "timeout" } | { kind: "reset" };

/** Takes the next call fault due at `moment` for a call to `route`, counting it down. */
export function takeCallFault(faults: PartnerFaults, moment: FaultMoment, route: string): CallFault | undefined {
  const { failNext, timeoutNext, resetNext } = faults;
  const due = (target: CallFaultTarget | undefined): target is CallFaultTarget =>
    target !== undefined &&
    target.when === moment &&
    target.count > 0 &&
    (target.route === undefined || target.route === route);
  if (due(failNext)) {
    failNext.count -= 1;
    return { kind: "fail", status: failNext.status };
  }
  if (due(timeoutNext)) {
    timeoutNext.count -= 1;
    return { kind: "timeout" };
  }
  if (due(resetNext)) {
    resetNext.count -= 1;
    return { kind: "reset" };
  }
  return undefined;
}

/** Checks a `PUT /_control/faults` body; returns a message naming what is wrong, or the faults. */
export function parseFaults(input: unknown): FaultsInput | string {
  if (!isObject(input)) return "body must be an object";
  const { partner, latencyMs, failNext, timeoutNext, resetNext, callbacks } = input;
  if (!PARTNERS.includes(partner as PartnerName)) return `partner must be one of ${PARTNERS.join(", ")}`;
  if (latencyMs !== undefined && !isCount(latencyMs)) return "latencyMs must be a non-negative integer";
  for (const [name, value] of Object.entries({ failNext, timeoutNext, resetNext })) {
    if (value === undefined) continue;
    if (!isObject(value) || !isCount(value.count) || (value.when !== "before" && value.when !== "after"))
      return `${name} must be { count, when: "before" | "after" }`;
    if (value.route !== undefined && typeof value.route !== "string")
      return `${name}.route must be a route template such as "POST /v2/account/tickets"`;
  }
  if (failNext !== undefined && !isErrorStatus((failNext as Record<string, unknown>).status))
    return "failNext.status must be an HTTP error status (400-599)";
  if (callbacks !== undefined) {
    if (!isObject(callbacks)) return "callbacks must be an object";
    const { drop, duplicate, reorder, delayMs } = callbacks;
    if ([drop, duplicate, delayMs].some((value) => value !== undefined && !isCount(value)))
      return "callbacks.drop, duplicate and delayMs must be non-negative integers";
    if (reorder !== undefined && typeof reorder !== "boolean") return "callbacks.reorder must be a boolean";
  }
  return input as unknown as FaultsInput;
}

function isErrorStatus(status: unknown): boolean {
  return Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}
