import { z } from "zod";
import { instant, text } from "../validation.js";

export const MAX_ACTIVE_CREDENTIALS = 5;
export const DEFAULT_CREDENTIAL_NAME = "API Credential";

export const createCredentialInput = z
  .object({
    // Within the bound, a name over 100 characters once trimmed is the service's INVALID_CREDENTIAL_NAME.
    name: text("line").optional().describe('1 to 100 characters once trimmed; default "API Credential".'),
    expiresAt: instant("must be an ISO 8601 date-time")
      .optional()
      .describe("In the future and at most 2 years away; default one year from now."),
  })
  .strict();
export type CredentialInput = z.output<typeof createCredentialInput>;

/** The credential resource as callers see it (CONTRACT.md): never the secret, never its digest. */
export interface ApiCredentialView {
  id: string;
  name: string;
  profileId: string;
  partnerId: string | null;
  environment: string;
  publicKey: string;
  secretKeyPrefix: string;
  publicLastUsedAt: Date | null;
  secretLastUsedAt: Date | null;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IssuedCredential {
  credential: ApiCredentialView;
  /** Shown once, in the creation response. */
  secretKey: string;
}

/**
 * The cache tag of a profile's credential pages: published when a credential is issued or revoked, when the
 * profile is deleted, and when last-use times of its credentials are written, on whichever instance did it.
 */
export const credentialListTag = (profileId: string) => `api-credential-list:${profileId}`;
