import type { App } from "../app.js";
import type { Principal } from "../auth/principal.js";
import { AppError } from "../errors.js";
import { principalProfileId } from "../auth/principal.js";

export interface GraphQLContext {
  app: App;
  principal: Principal;
  requestId: string;
  /** The per-IP sign-in rate limit (request-otp and verify-otp), shared with REST. */
  enforceSignInLimit(): Promise<void>;
}

/** The profile the caller speaks for (resolvers run after @auth, so one exists where a task needs it). */
export function callerProfileId(context: GraphQLContext): string {
  const profileId = principalProfileId(context.principal);
  if (!profileId) throw new AppError("AUTHENTICATION_REQUIRED");
  return profileId;
}
