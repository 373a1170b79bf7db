import { z } from "zod";
import { idField, instantField, named, outputObject } from "../output.js";
import { email, listPage, requiredString } from "../validation.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../reference-data/corridors.js";
import { describedEnum } from "../enums.js";

const normalizedEmail = requiredString("contactEmail is required")
  .max(254, "must be at most 254 characters")
  .trim()
  .toLowerCase()
  .pipe(email());

export const createManagedProfileInput = z
  .object({
    externalSubjectId: requiredString("externalSubjectId is required")
      .trim()
      .min(1)
      .max(255)
      .describe(
        "The manager's own id for the subject, 1 to 255 characters once trimmed; unique per manager, reserved even after deletion.",
      ),
    contactEmail: normalizedEmail.describe(
      "Provider contact email, trimmed and lower-cased, at most 255 characters; unique per manager, reserved even after deletion.",
    ),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES, { error: "must be individual or business" })).describe(
      "Whether the child transacts as a person or a company.",
    ),
  })
  .strict();

const PROFILE_FILTERS = ["active", "deleted", "all"] as const;

describedEnum("ManagedProfileFilter", PROFILE_FILTERS, {
  description: "Which managed children a list returns, by status.",
  meanings: {
    active: "Only children that are not deleted.",
    deleted: "Only deleted children.",
    all: "Active and deleted children alike.",
  },
});

export const listManagedProfilesInput = z.object({
  status: named("ManagedProfileFilter", z.enum(PROFILE_FILTERS))
    .default("active")
    .describe("Which children to list; only active ones by default."),
  ...listPage.shape,
});

export const managerPolicyInput = z
  .object({
    allowedCorridors: z
      .array(named("Corridor", z.enum(CORRIDORS)))
      .transform((list) => [...new Set(list)].sort())
      .describe("Corridors the manager may act in for its children; duplicates are dropped."),
    allowedCustomerTypes: z
      .array(named("CustomerType", z.enum(CUSTOMER_TYPES)))
      .min(1, "must list at least one customer type, or be null for no narrowing")
      .transform((list) => [...new Set(list)].sort())
      .nullable()
      .default(null)
      .describe("Customer types its children may transact as (at least one); null or left out for no narrowing."),
    isActive: z
      .boolean()
      .describe("False disables the manager: its children can then be neither managed nor acted for."),
  })
  .strict();

export type CreateManagedProfileInput = z.output<typeof createManagedProfileInput>;
export type ManagedProfilesPage = z.output<typeof listManagedProfilesInput>;
export type ManagerPolicyInput = z.output<typeof managerPolicyInput>;

/**
 * Who created a child. Only its manager does (createManagedProfile): no operator path creates children, so
 * every child's source follows from that and is not stored. A future path for operators would store it, and
 * the children before it were all the manager's.
 */
const CREATION_SOURCES = ["manager"] as const;

describedEnum("ManagedProfileCreationSource", CREATION_SOURCES, {
  description: "Who created a managed child.",
  meanings: { manager: "Its manager, through createManagedProfile (REST: POST /v1/managed-profiles)." },
});

const MANAGED_PROFILE_STATUSES = ["active", "deleted"] as const;

describedEnum("ManagedProfileStatus", MANAGED_PROFILE_STATUSES, {
  description: "Whether a managed child is live or logically deleted.",
  meanings: { active: "Not deleted.", deleted: "Deleted: credentials revoked, new activity blocked, history kept." },
});

export const managedProfileView = outputObject(
  "ManagedProfile",
  "A headless child profile created and controlled by a manager.",
  {
    profileId: idField("The child's profile id (UUID), the value X-Managed-Profile-Id takes."),
    externalSubjectId: z.string().describe("Immutable, unique per manager; reserved even after deletion."),
    contactEmail: z.string().describe("Normalized provider contact email; never a login identity."),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "Whether the child transacts as a person or a company; set at creation.",
    ),
    creationSource: named("ManagedProfileCreationSource", z.enum(CREATION_SOURCES)).describe(
      "Who created the child; every child here is its manager's.",
    ),
    status: named("ManagedProfileStatus", z.enum(MANAGED_PROFILE_STATUSES)).describe(
      "Deleted once the manager deleted the child.",
    ),
    deletedAt: instantField("When the child was deleted; null while it is active.").nullable(),
    createdAt: instantField("When the manager created the child."),
    updatedAt: instantField("When the child's record last changed."),
  },
);
export type ManagedProfileView = z.output<typeof managedProfileView>;

export const createdManagedProfile = outputObject(
  "CreateManagedProfilePayload",
  "The outcome of createManagedProfile.",
  {
    managedProfile: managedProfileView.describe("The new child, or the existing one an identical retry matched."),
    created: z.boolean().describe("False when an identical earlier creation was returned."),
  },
);
