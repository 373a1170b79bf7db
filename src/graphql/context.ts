import type { App } from "../app.js";
import { NO_DELEGATION, type ActingContext, type DelegationRule } from "../auth/delegation.js";
import type { Principal } from "../auth/principal.js";
import { AppError } from "../errors.js";
import type { GraphQLLoaders } from "./loaders.js";

export interface GraphQLContext {
  app: App;
  principal: Principal;
  /** X-Managed-Profile-Id as sent on the HTTP request or in the connection_init payload. */
  selector: string | undefined;
  requestId: string;
  /** The per-IP sign-in rate limit (request-otp and verify-otp), shared with REST. */
  enforceSignInLimit(): void;
  /** Batch loaders, new for every request (see createLoaders). */
  loaders: GraphQLLoaders;
}

/** Who acts for whom in this operation, under the field's delegation rule (the one path REST uses too). */
export async function actingContext(
  context: GraphQLContext,
  rule: DelegationRule = NO_DELEGATION,
): Promise<ActingContext> {
  const acting = await optionalActingContext(context, rule);
  if (!acting) throw new AppError("AUTHENTICATION_REQUIRED");
  return acting;
}

/** `actingContext` for operations open to anonymous callers (quotes): null when nobody is authenticated. */
export async function optionalActingContext(
  context: GraphQLContext,
  rule: DelegationRule = NO_DELEGATION,
): Promise<ActingContext | null> {
  return context.app.delegation.resolve(context.principal, context.selector, rule);
}
