import { createSecretKey, randomUUID, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import type { Config } from "../config.js";
import { AppError } from "../errors.js";

const ALGORITHM = "HS256";

export interface AccessToken {
  token: string;
  expiresIn: number;
}

/** Signs and verifies session access tokens; the algorithm is pinned on both sides. */
export class AccessTokens {
  /** A key object made once: given a string, jsonwebtoken first tries (and fails) to parse it as a public key on every verify. */
  private readonly key: KeyObject;

  constructor(private readonly settings: Config["jwt"]) {
    this.key = createSecretKey(Buffer.from(settings.secret));
  }

  /** `sid` names the sign-in (session family) the token belongs to, so ending it ends the token too. */
  issue(profileId: string, sessionId: string): AccessToken {
    const token = jwt.sign({ sid: sessionId }, this.key, {
      algorithm: ALGORITHM,
      subject: profileId,
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      expiresIn: this.settings.accessTokenTtlSeconds,
      jwtid: randomUUID(),
    });
    return { token, expiresIn: this.settings.accessTokenTtlSeconds };
  }

  verify(token: string): { profileId: string; sessionId: string; expiresAt: Date } {
    try {
      const claims = jwt.verify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
      });
      if (typeof claims === "string" || !claims.sub || !claims.exp || !claims.jti || typeof claims.sid !== "string") {
        throw new Error("missing claims");
      }
      return { profileId: claims.sub, sessionId: claims.sid, expiresAt: new Date(claims.exp * 1000) };
    } catch {
      throw new AppError("INVALID_BEARER_TOKEN");
    }
  }
}
