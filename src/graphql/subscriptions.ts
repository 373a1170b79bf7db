import type { DelegationRule } from "../auth/delegation.js";
import type { Principal } from "../auth/principal.js";
import { AppError } from "../errors.js";
import type { GraphQLContext } from "./context.js";

/** Who a subscriber sees for: subscribers with the same principal and selector are entitled to the same things. */
export function audienceKey(principal: Principal, selector: string | undefined): string {
  const who =
    principal.kind === "session" ? principal.sessionId : "credential" in principal ? principal.credential.id : "";
  return `${principal.kind} ${who} ${selector ?? ""}`;
}

/**
 * What one event costs its subscribers, computed once for all those that would compute the same thing
 * (`key`) and forgotten with the event: a thousand subscribers of one caller make one check, not a thousand.
 */
function oncePerEvent<T>(memo: WeakMap<object, Map<string, T>>, event: object, key: string, compute: () => T): T {
  let byKey = memo.get(event);
  if (!byKey) memo.set(event, (byKey = new Map()));
  let value = byKey.get(key);
  if (value === undefined) byKey.set(key, (value = compute()));
  return value;
}

/**
 * A subscription over a source that is listening already: `prepare` authorizes the subscriber and says what
 * it follows (undefined: not for it) while events are held, so none written meanwhile is missed; then each
 * event is re-authorized before it is delivered. A plain iterator (no generator): every subscriber's every
 * event goes through it, and closing it closes the source at once, ending a read that waits on it.
 */
export function followedStream<S, T>(
  source: AsyncIterableIterator<S>,
  prepare: () => Promise<(value: S) => T | undefined>,
  stillAuthorized: (event: S) => Promise<boolean>,
): AsyncIterableIterator<T> {
  let selecting: Promise<(value: S) => T | undefined> | undefined;
  const close = async () => void (await source.return?.());
  const failing = async (error: unknown): Promise<never> => {
    await close();
    throw error;
  };
  return {
    async next(): Promise<IteratorResult<T>> {
      try {
        const select = await (selecting ??= prepare());
        for (;;) {
          const next = await source.next();
          if (next.done) return { done: true, value: undefined };
          const selected = select(next.value);
          if (selected === undefined) continue;
          if (!(await stillAuthorized(next.value)))
            throw new AppError("AUTHENTICATION_REQUIRED", "The credential of this subscription is no longer valid.");
          return { done: false, value: selected };
        }
      } catch (error) {
        return failing(error);
      }
    },
    async return() {
      await close();
      return { done: true, value: undefined };
    },
    throw: failing,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** `followedStream` of every event of the source. */
export function guardedStream<S>(
  source: AsyncIterableIterator<S>,
  stillAuthorized: (event: S) => Promise<boolean>,
): AsyncIterableIterator<S> {
  return followedStream(source, async () => (event: S) => event, stillAuthorized);
}

const entitlements = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * Whether a subscriber may still receive `event`: false once its credential or session is no longer valid;
 * the delegation's own error (a deleted child, an inactive manager) once it no longer holds. Decided once
 * per event for all the subscribers of one caller, selector and rule.
 */
export function stillEntitled(context: GraphQLContext, rule: DelegationRule, event: object): Promise<boolean> {
  const { app, principal, selector } = context;
  const key = `${audienceKey(principal, selector)} ${rule.selector} ${rule.childCredential} ${rule.corridor ?? ""} ${rule.customerType ?? ""}`;
  return oncePerEvent(entitlements, event, key, async () => {
    if (!(await app.authenticator.stillValid(principal))) return false;
    await app.delegation.resolve(principal, selector, rule);
    return true;
  });
}
