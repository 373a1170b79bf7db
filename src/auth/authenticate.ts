import { timingSafeEqual } from "node:crypto";
import { AppError } from "../errors.js";
import { sha256Hex, type KeyKind } from "./keys.js";
import type { Principal, VerifiedCredential, VerifiedSession } from "./principal.js";

/** Verifies API keys: the credentials module provides it. */
export interface KeyVerifier {
  /** `connection`: the one the value came on, when there is one (a keep-alive client presents it again). */
  verify(kind: KeyKind, value: string, connection?: object): Promise<VerifiedCredential>;
  isStillValid(kind: KeyKind, credential: VerifiedCredential): Promise<boolean>;
}

/** Verifies bearer tokens and whether their sign-in is still on: the identity module provides it. */
export interface BearerVerifier {
  verify(token: string): Promise<VerifiedSession>;
  isActive(session: VerifiedSession): Promise<boolean>;
}

/** Header names as they arrive over HTTP (lower-cased) or in a WebSocket `connection_init` payload. */
export type CredentialHeaders = Record<string, unknown>;

function header(headers: CredentialHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? String(value[0]) : String(value);
}

/** Lower-cases the keys of a `connection_init` payload so it reads like HTTP headers. */
export function normalizeHeaderNames(payload: Record<string, unknown> | undefined): CredentialHeaders {
  return Object.fromEntries(Object.entries(payload ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * Turns request headers into a principal: the one path for REST, GraphQL over HTTP and WebSocket.
 * A bearer session takes precedence; keys sent with it are still verified. Every key value sent, in the
 * headers or presented elsewhere, must belong to one credential.
 */
export class Authenticator {
  private readonly operatorTokenDigest: Buffer;

  constructor(
    private readonly verifier: KeyVerifier,
    private readonly sessions: BearerVerifier,
    operatorToken: string,
  ) {
    this.operatorTokenDigest = Buffer.from(sha256Hex(operatorToken), "hex");
  }

  /**
   * `presentedPublicKeys`: public values a route reads from outside the headers (the body or query `apiKey` of
   * quote and widget session creation); each counts as an X-Public-Key would. `connection`: the socket the
   * request came on, if any.
   */
  async authenticate(
    headers: CredentialHeaders,
    presentedPublicKeys: readonly string[] = [],
    connection?: object,
  ): Promise<Principal> {
    const authorization = header(headers, "authorization");
    const secretValue = header(headers, "x-api-key");
    const publicValue = header(headers, "x-public-key");

    const secret =
      secretValue !== undefined ? await this.verifier.verify("secret", secretValue, connection) : undefined;
    const publicCredential =
      publicValue !== undefined ? await this.verifier.verify("public", publicValue, connection) : undefined;
    if (secret && publicCredential && secret.id !== publicCredential.id) throw new AppError("CREDENTIAL_MISMATCH");
    let keyCredential = secret ?? publicCredential;
    for (const presented of presentedPublicKeys) {
      const credential = await this.verifier.verify("public", presented, connection);
      if (keyCredential && credential.id !== keyCredential.id) throw new AppError("CREDENTIAL_MISMATCH");
      keyCredential ??= credential;
    }

    if (authorization !== undefined) {
      const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
      if (scheme?.toLowerCase() !== "bearer" || !token || rest.length) throw new AppError("INVALID_BEARER_TOKEN");
      // Digests of equal length, compared in constant time: the token's length and content stay hidden.
      if (timingSafeEqual(Buffer.from(sha256Hex(token), "hex"), this.operatorTokenDigest)) return { kind: "operator" };
      return { kind: "session", ...(await this.sessions.verify(token)) };
    }
    if (secret) return { kind: "secret", credential: secret };
    if (keyCredential) return { kind: "public", credential: keyCredential };
    return { kind: "anonymous" };
  }

  /** Re-checks a principal held by a long-lived connection: a revoked key or an ended session ends it. */
  async stillValid(principal: Principal): Promise<boolean> {
    switch (principal.kind) {
      case "anonymous":
      case "operator":
        return true;
      case "session":
        return this.sessions.isActive(principal);
      default:
        return this.verifier.isStillValid(principal.kind, principal.credential);
    }
  }
}
