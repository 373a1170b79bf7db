import { z } from "zod";
import { email, listPage, requiredString } from "../validation.js";
import { CORRIDORS, CUSTOMER_TYPES, type CustomerType } from "../reference-data/corridors.js";

const normalizedEmail = requiredString("contactEmail is required")
  .max(254, "must be at most 254 characters")
  .trim()
  .toLowerCase()
  .pipe(email());

export const createManagedProfileInput = z
  .object({
    externalSubjectId: requiredString("externalSubjectId is required").trim().min(1).max(255),
    contactEmail: normalizedEmail,
    customerType: z.enum(CUSTOMER_TYPES, { error: "must be individual or business" }),
  })
  .strict();

export const listManagedProfilesInput = z.object({
  status: z.enum(["active", "deleted", "all"]).default("active"),
  ...listPage.shape,
});

export const managerPolicyInput = z
  .object({
    allowedCorridors: z.array(z.enum(CORRIDORS)).transform((list) => [...new Set(list)].sort()),
    allowedCustomerTypes: z
      .array(z.enum(CUSTOMER_TYPES))
      .min(1, "must list at least one customer type, or be null for no narrowing")
      .transform((list) => [...new Set(list)].sort())
      .nullable()
      .default(null),
    isActive: z.boolean(),
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
export const CREATION_SOURCES = ["manager"] as const;

export interface ManagedProfileView {
  profileId: string;
  externalSubjectId: string;
  contactEmail: string;
  customerType: CustomerType;
  creationSource: (typeof CREATION_SOURCES)[number];
  status: "active" | "deleted";
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
