import { AppError } from "../errors.js";
import type { Principal, PrincipalKind } from "./principal.js";

/**
 * The capability matrix of CONTRACT.md as one table: task -> the principal kinds that may perform it.
 * REST routes declare a capability in their config; GraphQL operations in `@auth(requires: [...])`.
 */
export const CAPABILITY_MATRIX = {
  /** Sign-in and session renewal: open to everyone. */
  SIGN_IN: ["anonymous", "public", "secret", "session"],
  QUOTE: ["anonymous", "public", "secret", "session"],
  /** Public reference data (countries, currencies, rails): anyone, though a presented credential must be valid. */
  REFERENCE_DATA: ["anonymous", "public", "secret", "session"],
  RAMP_INFO: ["public", "secret"],
  /** Read the calling profile itself. */
  PROFILE_READ: ["secret", "session"],
  EXACT_LIMITS: ["secret", "session"],
  /** The subject's provider accounts: payout fiat accounts (reads, like exact limits, and their changes). */
  PROVIDER_ACCOUNTS: ["secret", "session"],
  RAMP_OPERATIONS: ["secret", "session"],
  ACT_FOR_MANAGED_CHILD: ["secret", "session"],
  /** Create, list, read and delete one's own managed children. */
  MANAGED_PROFILES: ["secret", "session"],
  MANAGE_CHILD_CREDENTIALS: ["secret", "session"],
  BR_KYC_IMPORT: ["secret", "session"],
  WEBHOOK_MANAGEMENT: ["secret"],
  OWN_CREDENTIALS: ["session"],
  RECIPIENTS: ["session"],
  /** Choosing the entity (individual or business) the signed-in profile itself acts as: the reference's bearer only. */
  ACTIVE_ENTITY: ["session"],
  /** The operator surface: managers, partners, partner credentials, pricing assignments. */
  OPERATOR: ["operator"],
} as const satisfies Record<string, readonly PrincipalKind[]>;

export type Capability = keyof typeof CAPABILITY_MATRIX;

/**
 * Tasks only one kind of credential authenticates for: presenting another kind is an authentication
 * failure (401), not a refused task (403). Webhook management takes a secret key only (issue 5, and the
 * reference: bearer sessions are not accepted); the operator surface takes the operator token only.
 */
const SINGLE_CREDENTIAL_TASKS: readonly Capability[] = ["WEBHOOK_MANAGEMENT", "OPERATOR"];
export const CAPABILITIES = Object.keys(CAPABILITY_MATRIX) as Capability[];

/** Whether a principal of this kind may perform the task (the matrix, read as it stands). */
export function allows(capability: Capability, kind: PrincipalKind): boolean {
  return (CAPABILITY_MATRIX[capability] as readonly PrincipalKind[]).includes(kind);
}

/** Throws the contract's error when the principal's kind may not perform every listed task. */
export function requireCapabilities(principal: Principal, capabilities: readonly Capability[]): void {
  for (const capability of capabilities) {
    if (allows(capability, principal.kind)) continue;
    if (principal.kind === "anonymous" || SINGLE_CREDENTIAL_TASKS.includes(capability)) {
      throw new AppError(capability === "RAMP_INFO" ? "CREDENTIAL_REQUIRED" : "AUTHENTICATION_REQUIRED");
    }
    throw new AppError("FORBIDDEN");
  }
}
