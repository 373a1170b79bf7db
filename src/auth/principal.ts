/** A credential that passed verification: who it acts for, never its secret. */
export interface VerifiedCredential {
  id: string;
  profileId: string;
  partnerId: string | null;
  /** Set when the credential belongs to a managed child: the child's manager. */
  managerProfileId: string | null;
  /** SHA-256 of the presented value, to re-verify long-lived connections through the cache. */
  keyDigest: string;
}

/** A bearer token that passed verification, with the sign-in it belongs to. */
export interface VerifiedSession {
  profileId: string;
  sessionId: string;
  expiresAt: Date;
}

/** Who is calling, as established from headers or a WebSocket `connection_init` payload. */
export type Principal =
  | { kind: "anonymous" }
  | { kind: "public"; credential: VerifiedCredential }
  | { kind: "secret"; credential: VerifiedCredential }
  | ({ kind: "session" } & VerifiedSession)
  /** The operator token (`/v1/admin/*` and operator GraphQL operations). */
  | { kind: "operator" };

export type PrincipalKind = Principal["kind"];

/** The profile a principal speaks for, if any. */
export function principalProfileId(principal: Principal): string | undefined {
  switch (principal.kind) {
    case "anonymous":
    case "operator":
      return undefined;
    case "session":
      return principal.profileId;
    default:
      return principal.credential.profileId;
  }
}

/**
 * The ids whose invalidation on the bus may end a principal held by a long-lived connection: its credential's
 * (revoked) and its partner's (deactivated), or its sign-in's (logout, refresh-token reuse).
 */
export function revocationTags(principal: Principal): string[] {
  switch (principal.kind) {
    case "anonymous":
    case "operator":
      return [];
    case "session":
      return [principal.sessionId];
    default:
      return principal.credential.partnerId
        ? [principal.credential.id, principal.credential.partnerId]
        : [principal.credential.id];
  }
}
