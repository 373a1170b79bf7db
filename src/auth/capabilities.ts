import { AppError } from "../errors.js";
import type { Principal, PrincipalKind } from "./principal.js";

/**
 * The capability matrix of CONTRACT.md as one table: task -> the principal kinds that may perform it.
 * REST routes declare a capability in their config; GraphQL operations in `@auth(requires: [...])`.
 */
export const CAPABILITY_MATRIX = {
  SIGN_IN: ["anonymous", "public", "secret", "session"],
  QUOTE: ["anonymous", "public", "secret", "session"],
  REFERENCE_DATA: ["anonymous", "public", "secret", "session"],
  RAMP_INFO: ["public", "secret"],
  PROFILE_READ: ["secret", "session"],
  EXACT_LIMITS: ["secret", "session"],
  PROVIDER_ACCOUNTS: ["secret", "session"],
  RAMP_OPERATIONS: ["secret", "session"],
  ACT_FOR_MANAGED_CHILD: ["secret", "session"],
  MANAGED_PROFILES: ["secret", "session"],
  MANAGE_CHILD_CREDENTIALS: ["secret", "session"],
  BR_KYC_IMPORT: ["secret", "session"],
  WEBHOOK_MANAGEMENT: ["secret"],
  OWN_CREDENTIALS: ["session"],
  RECIPIENTS: ["session"],
  // The reference's bearer only.
  ACTIVE_ENTITY: ["session"],
  OPERATOR: ["operator"],
} as const satisfies Record<string, readonly PrincipalKind[]>;

export type Capability = keyof typeof CAPABILITY_MATRIX;

/** What each task is and who may perform it, in words: the GraphQL schema's Capability enum says them. */
export const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  SIGN_IN: "Sign-in and session renewal; open to every caller, anonymous included.",
  QUOTE: "Quotes and widget attribution; open to every caller, anonymous included.",
  REFERENCE_DATA: "Public reference data; open to every caller, though a presented credential must be valid.",
  RAMP_INFO: "KYC status and buy and sell eligibility per corridor; a public or secret key only.",
  PROFILE_READ: "Reading the calling profile itself; a secret key or a session.",
  EXACT_LIMITS: "Exact limits and onboarding status; a secret key or a session.",
  PROVIDER_ACCOUNTS: "The subject's provider customers, KYC/KYB and payout fiat accounts; a secret key or a session.",
  RAMP_OPERATIONS:
    "Registering, updating and starting ramps, and reading their status, history and errors; a secret key or a session.",
  ACT_FOR_MANAGED_CHILD: "Acting for a managed child through X-Managed-Profile-Id; a secret key or a session.",
  MANAGED_PROFILES: "Creating, listing, reading and deleting one's own managed children; a secret key or a session.",
  MANAGE_CHILD_CREDENTIALS: "Managing a directly owned child's credentials; a secret key or a session.",
  BR_KYC_IMPORT: "Importing a BR individual-KYC token; a secret key or a session.",
  WEBHOOK_MANAGEMENT: "Managing webhook subscriptions; a secret key only.",
  OWN_CREDENTIALS: "The lifecycle of the caller's own API credentials; a session only.",
  RECIPIENTS: "Sender-side recipient operations; a session only.",
  ACTIVE_ENTITY: "Choosing the entity (individual or business) the signed-in profile acts as; a session only.",
  OPERATOR:
    "The operator surface: managers, partners, partner credentials, pricing assignments; the operator token only.",
};

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
