import { z } from "zod";
import { RAMP_ENVIRONMENTS } from "../auth/keys.js";
import { idField, instantField, named, outputObject, pagination } from "../output.js";
import { instant, text } from "../validation.js";
import { describedEnum } from "../enums.js";

export const MAX_ACTIVE_CREDENTIALS = 5;
export const DEFAULT_CREDENTIAL_NAME = "API Credential";

export const createCredentialInput = z
  .object({
    // Within the bound, a name over 100 characters once trimmed is the service's INVALID_CREDENTIAL_NAME.
    name: text("line").optional().describe('1 to 100 characters once trimmed; default "API Credential".'),
    expiresAt: named("DateTime", instant("must be an ISO 8601 date-time"))
      .optional()
      .describe("In the future and at most 2 years away; default one year from now."),
  })
  .strict();
export type CredentialInput = z.output<typeof createCredentialInput>;

/** The credential resource as callers see it (CONTRACT.md): never the secret, never its digest. */
export const apiCredentialView = outputObject(
  "ApiCredential",
  "An API credential: a public and a secret value for one profile. The secret is never readable.",
  {
    id: idField("The credential's id (UUID), which revocation takes."),
    name: z.string().describe('Display name, 1 to 100 characters; "API Credential" unless one was given.'),
    profileId: idField("The profile the credential authenticates, and only that one."),
    partnerId: idField(
      "The partner a partner-managed credential is attributed to; null for every other credential.",
    ).nullable(),
    environment: named("RampEnvironment", z.enum(RAMP_ENVIRONMENTS)).describe(
      "The sandbox or production environment; the credential works only on a deployment of the same one.",
    ),
    publicKey: z
      .string()
      .describe("The public value: `pk_<environment>_` and 32 letters and digits; readable at any time."),
    secretKeyPrefix: z.string().describe("The first 16 characters of the secret value, for display and lookup."),
    publicLastUsedAt: instantField(
      "When the public value last authenticated a request; null if never. Recorded in batches.",
    ).nullable(),
    secretLastUsedAt: instantField(
      "When the secret value last authenticated a request; null if never. Recorded in batches.",
    ).nullable(),
    expiresAt: instantField("When both values stop authenticating; set at creation, at most 2 years after it."),
    revokedAt: instantField("When both values were revoked; null until then.").nullable(),
    createdAt: instantField("When the credential was issued."),
    updatedAt: instantField("When the credential record last changed."),
  },
);
export type ApiCredentialView = z.output<typeof apiCredentialView>;

/** A page of a profile's credentials. */
export const apiCredentialList = z.object({ credentials: z.array(apiCredentialView), pagination });

export const issuedCredential = outputObject(
  "CreatedApiCredential",
  "A newly created credential with its secret value, shown only this once.",
  {
    credential: apiCredentialView.describe("The new credential, as later reads return it."),
    secretKey: z
      .string()
      .describe("The secret value: `sk_<environment>_` and 32 letters and digits; it cannot be read again."),
  },
);
export type IssuedCredential = z.output<typeof issuedCredential>;

/**
 * The cache tag of a profile's credential pages: published when a credential is issued or revoked, when the
 * profile is deleted, and when last-use times of its credentials are written, on whichever instance did it.
 */
export const credentialListTag = (profileId: string) => `api-credential-list:${profileId}`;

const CREDENTIAL_EVENT_ACTIONS = ["created", "revoked"] as const;

describedEnum("ApiCredentialEventAction", CREDENTIAL_EVENT_ACTIONS, {
  description: "What happened to a credential.",
  meanings: { created: "The credential was issued.", revoked: "Both values of the credential were revoked." },
});

/** A credential of a profile was created or revoked: what its live subscribers are told. */
export const apiCredentialEventView = outputObject(
  "ApiCredentialEvent",
  "A credential of the caller's profile was created or revoked.",
  {
    action: named("ApiCredentialEventAction", z.enum(CREDENTIAL_EVENT_ACTIONS)).describe(
      "Whether the credential was created or revoked.",
    ),
    credential: apiCredentialView.describe("The credential as it stands when the event is delivered."),
  },
);
export type ApiCredentialEventView = z.output<typeof apiCredentialEventView>;
