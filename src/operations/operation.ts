import type { z } from "zod";
import type { App } from "../app.js";
import type { OperatorActor } from "../audit/types.js";
import type { Capability } from "../auth/capabilities.js";
import type { ActingContext, DelegationName } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import type { Partner } from "../providers/partners.js";
import { parseInput } from "../validation.js";

/** Who may perform an operation: the tasks of the capability matrix it needs and how delegation applies. */
export interface AccessRule {
  readonly requires: readonly [Capability, ...Capability[]];
  readonly delegation: DelegationName;
}

/**
 * Who may deliver a partner's callbacks: no caller credential, only that partner's signature over the body's
 * bytes (`src/partner-callbacks`). The route's config carries it, and the server verifies it before the handler.
 */
export interface PartnerSignatureRule {
  readonly partnerSignature: Partner;
}

/**
 * A check that depends on part of the input and comes before the rest is validated: the corridor policy a
 * quote or a ramp decides (authorization before validation, specification rule 5). What it found goes to
 * `run`, so nothing is read twice.
 */
export interface Gate<Found> {
  check(app: App, acting: ActingContext, input: unknown): Promise<Found>;
}

/** A gate reading only the fields `input` names (validated by it) before anything else is validated. */
export const gate = <Fields extends z.ZodObject, Found>(
  input: Fields,
  check: (app: App, acting: ActingContext, fields: z.output<Fields>) => Promise<Found>,
): Gate<Found> => ({ check: (app, acting, raw) => check(app, acting, parseInput(input, raw)) });

/**
 * One operation, defined once: its input schema, its access rule and the service call. The REST route,
 * its OpenAPI entry and the GraphQL field are derived from it, so both faces validate the same input the
 * same way, after the same caller checks.
 */
export interface Operation<
  Input extends z.ZodObject = z.ZodObject,
  Result = unknown,
  Acting extends ActingContext | OperatorActor | null = ActingContext,
  Found = undefined,
> {
  /** The REST operationId (the reference's name where it has one). */
  readonly name: string;
  readonly summary: string;
  readonly access: AccessRule;
  /** The input as the service takes it, under domain names; every face validates with it. */
  readonly input: Input;
  /**
   * What the service answers (src/output.ts): the REST response schema, its serializer and OpenAPI entry, and the
   * GraphQL object types are generated from it.
   */
  readonly output?: z.ZodType<Result>;
  /** Runs without an acting profile: operations open to anonymous callers (quotes). */
  readonly withoutSubject?: Acting extends null ? true : never;
  readonly gate?: Gate<Found>;
  run(app: App, acting: Acting, input: z.output<Input>, found: Found): Result | Promise<Result>;
}

/** Any operation, as the faces that serve it see it. */
export type AnyOperation<Result = unknown> = Operation<
  z.ZodObject,
  Result,
  ActingContext | OperatorActor | null,
  unknown
>;

export const defineOperation = <
  Input extends z.ZodObject,
  Result,
  Acting extends ActingContext | OperatorActor | null = ActingContext,
  Found = undefined,
>(
  operation: Operation<Input, Result, Acting, Found>,
) => operation;

/**
 * An operation open to callers who act for no subject (anonymous callers, public keys, sign-in): it runs
 * with a null acting context for them; keys and sessions still act for theirs.
 */
export const defineOpenOperation = <Input extends z.ZodObject, Result>(
  access: AccessRule,
  operation: Omit<Operation<Input, Result, ActingContext | null>, "access" | "withoutSubject">,
) => defineOperation<Input, Result, ActingContext | null>({ ...operation, access, withoutSubject: true });

/**
 * An operator task (`/v1/admin`, the admin GraphQL fields, the CLI): the operator token, acting for no
 * profile; each face says which operator it is (the request, or the CLI's OS account), for the audit log.
 */
export const defineOperatorOperation = <Input extends z.ZodObject, Result>(
  operation: Pick<Operation<Input, Result, OperatorActor>, "name" | "summary" | "input" | "output" | "run">,
): Operation<Input, Result, OperatorActor> => ({
  ...operation,
  access: { requires: ["OPERATOR"], delegation: "NONE" },
});

/**
 * Validates what a face received against the operation's schema (VALIDATION_FAILED, per field), then runs it.
 * `refused` is what the face's own reading of its wire refused (a missing Idempotency-Key, a conflicting
 * country): it is answered after the gate, since authorization comes before anything about the input (the
 * gate then sees the wire as it was, and its own failure to read a field gives way to that refusal).
 */
export function perform<Result>(
  operation: AnyOperation<Result>,
  app: App,
  acting: ActingContext | OperatorActor | null,
  input: unknown,
  refused?: unknown,
): Result | Promise<Result> {
  if (acting === null && !operation.withoutSubject) throw new AppError("AUTHENTICATION_REQUIRED");
  const validated = () => {
    if (refused !== undefined) throw refused;
    return parseInput(operation.input, input);
  };
  if (!operation.gate) return operation.run(app, acting, validated(), undefined);
  const { gate } = operation;
  // A gate may throw at once (its own fields invalid): that too gives way to the face's refusal. Gated
  // operations act for a profile: no operator task has a gate.
  return new Promise<unknown>((resolve) => resolve(gate.check(app, acting as ActingContext, input))).then(
    (found) => operation.run(app, acting, validated(), found),
    (error: unknown) => {
      throw refused !== undefined && error instanceof AppError && error.code === "VALIDATION_FAILED" ? refused : error;
    },
  );
}
