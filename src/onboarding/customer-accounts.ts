import { createHash } from "node:crypto";
import type { CustomerType } from "../reference-data/corridors.js";

/** An entity a subject transacts as. */
export interface SubjectEntity {
  id: string;
  customerType: string;
  isActive: boolean;
}

/**
 * The entities a subject transacts as, oldest first: its registered ones, or, for a direct profile that has
 * none, the individual who signed in and, once it has a business customer with a provider, that business
 * (stable derived ids).
 */
export function subjectEntities(
  stored: SubjectEntity[],
  subjectProfileId: string,
  managedChild: boolean,
  hasBusinessCustomer: boolean,
): SubjectEntity[] {
  if (stored.length || managedChild) return stored;
  const derived = (customerType: CustomerType): SubjectEntity => ({
    id: nameBasedUuid(`${subjectProfileId}:${customerType}`),
    customerType,
    isActive: true,
  });
  return hasBusinessCustomer ? [derived("individual"), derived("business")] : [derived("individual")];
}

/** A name-based (version 5) UUID: a stable id for an entity a direct profile acts as. */
function nameBasedUuid(name: string): string {
  const bytes = createHash("sha1").update(`ramp-gateway:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
