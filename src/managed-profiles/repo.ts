import { randomUUID } from "node:crypto";
import { inTransaction, type Tx } from "../db/tx.js";
import type { Manager as ManagerRow, Prisma } from "../generated/prisma/client.js";
import type { ListPage } from "../validation.js";
import type { Corridor, CustomerType } from "../reference-data/corridors.js";
import type { ManagerPolicy } from "../auth/delegation.js";
import type { ManagedProfileView } from "./types.js";
import { Repository } from "../db/repository.js";

const CHILD_FIELDS = {
  id: true,
  managerProfileId: true,
  externalSubjectId: true,
  contactEmail: true,
  customerType: true,
  deletedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

type ChildRow = {
  id: string;
  externalSubjectId: string | null;
  contactEmail: string | null;
  customerType: string | null;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export function toManagedProfileView(row: ChildRow): ManagedProfileView {
  return {
    profileId: row.id,
    externalSubjectId: row.externalSubjectId!,
    contactEmail: row.contactEmail!,
    customerType: row.customerType as CustomerType,
    creationSource: "manager",
    status: row.deletedAt ? "deleted" : "active",
    deletedAt: row.deletedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const splitList = <T extends string>(value: string | null): T[] => (value ? (value.split(",") as T[]) : []);

/** A manager policy from its row (stored as comma-separated lists). */
function toManagerPolicy(row: ManagerRow): ManagerPolicy {
  return {
    profileId: row.profileId,
    allowedCorridors: splitList<Corridor>(row.allowedCorridors),
    allowedCustomerTypes: row.allowedCustomerTypes === null ? null : splitList<CustomerType>(row.allowedCustomerTypes),
    isActive: row.isActive,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const DELEGATION_TARGET_FIELDS = {
  id: true,
  managerProfileId: true,
  customerType: true,
  deletedAt: true,
  _count: { select: { customerEntities: { where: { isActive: true } } } },
} as const;

function toDelegationTarget(row: Prisma.ProfileGetPayload<{ select: typeof DELEGATION_TARGET_FIELDS }>) {
  return {
    managerProfileId: row.managerProfileId,
    customerType: row.customerType as CustomerType | null,
    deletedAt: row.deletedAt,
    activeEntities: row._count.customerEntities,
  };
}

/** Managers' policies and their managed children: what the managed-profile service reads and changes. */
export class ManagedProfileRepository extends Repository {
  /** Runs `work` in one interactive transaction of the ORM (see `inTransaction`). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /** The manager policy of a profile. */
  async findManagerPolicy(profileId: string): Promise<ManagerPolicy | null> {
    const row = await this.db.manager.findUnique({ where: { profileId } });
    return row && toManagerPolicy(row);
  }

  /** Every manager's policy, newest first, a page at a time, and how many there are. */
  async listManagerPolicies({ limit, offset }: ListPage): Promise<{ managers: ManagerPolicy[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db.manager.findMany({ orderBy: [{ createdAt: "desc" }, { profileId: "desc" }], skip: offset, take: limit }),
      this.db.manager.count(),
    ]);
    return { managers: rows.map(toManagerPolicy), total };
  }

  /** Creates or replaces a manager policy; `created` tells which. */
  async upsertManagerPolicy(
    tx: Tx,
    profileId: string,
    policy: { allowedCorridors: Corridor[]; allowedCustomerTypes: CustomerType[] | null; isActive: boolean },
  ): Promise<boolean> {
    const data = {
      allowedCorridors: policy.allowedCorridors.join(","),
      allowedCustomerTypes: policy.allowedCustomerTypes?.join(",") ?? null,
      isActive: policy.isActive,
    };
    const { count } = await tx.manager.updateMany({ where: { profileId }, data });
    if (count === 1) return false;
    await tx.manager.create({ data: { profileId, ...data } });
    return true;
  }

  /** Creates a child and its one customer entity together, so no half-made child can exist. */
  async insertManagedChild(
    tx: Tx,
    managerProfileId: string,
    child: { externalSubjectId: string; contactEmail: string; customerType: CustomerType },
  ) {
    const id = randomUUID();
    const row = await tx.profile.create({ data: { id, managerProfileId, ...child }, select: CHILD_FIELDS });
    await tx.customerEntity.create({ data: { id: randomUUID(), profileId: id, customerType: child.customerType } });
    return row;
  }

  /** The manager's children holding either reserved identifier (deleted ones included). */
  findChildrenByReservedKeys(managerProfileId: string, externalSubjectId: string, contactEmail: string) {
    return this.db.profile.findMany({
      where: { managerProfileId, OR: [{ externalSubjectId }, { contactEmail }] },
      select: CHILD_FIELDS,
    });
  }

  /** A child of this manager (active or deleted); null for anyone else's profile. */
  findManagedChild(managerProfileId: string, childProfileId: string) {
    return this.db.profile.findFirst({ where: { id: childProfileId, managerProfileId }, select: CHILD_FIELDS });
  }

  async listManagedChildren(
    managerProfileId: string,
    page: { status: "active" | "deleted" | "all"; limit: number; offset: number },
  ) {
    const where = {
      managerProfileId,
      ...(page.status === "active" && { deletedAt: null }),
      ...(page.status === "deleted" && { deletedAt: { not: null } }),
    };
    const [rows, total] = await Promise.all([
      this.db.profile.findMany({
        where,
        select: CHILD_FIELDS,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: page.limit,
        skip: page.offset,
      }),
      this.db.profile.count({ where }),
    ]);
    return { rows, total };
  }

  /**
   * Marks an active child deleted, taking its row lock the way credential issuance does (so issuance
   * either finishes first and is revoked below, or sees the child deleted), then revokes its credentials.
   * Returns false when the child was already deleted.
   */
  async deleteManagedChild(tx: Tx, managerProfileId: string, childProfileId: string, now: Date): Promise<boolean> {
    const { count } = await tx.profile.updateMany({
      where: { id: childProfileId, managerProfileId, deletedAt: null },
      data: { deletedAt: now, credentialsRevision: { increment: 1 } },
    });
    if (count === 0) return false;
    await tx.apiCredential.updateMany({
      where: { profileId: childProfileId, revokedAt: null },
      data: { revokedAt: now },
    });
    return true;
  }

  /** What delegation needs to know of a would-be child, read by id (the manager check is the caller's). */
  async findDelegationTarget(childProfileId: string) {
    const row = await this.db.profile.findUnique({ where: { id: childProfileId }, select: DELEGATION_TARGET_FIELDS });
    return row && toDelegationTarget(row);
  }

  /** `findDelegationTarget` of several profiles in one read, by id; unknown ones are left out. */
  async findDelegationTargets(childProfileIds: readonly string[]) {
    const rows = await this.db.profile.findMany({
      where: { id: { in: [...childProfileIds] } },
      select: DELEGATION_TARGET_FIELDS,
    });
    return new Map(rows.map((row) => [row.id, toDelegationTarget(row)]));
  }

  /** The manager's children among these ids (active or deleted); another profile is left out. */
  findManagedChildren(managerProfileId: string, childProfileIds: readonly string[]) {
    return this.db.profile.findMany({
      where: { id: { in: [...childProfileIds] }, managerProfileId },
      select: { id: true, deletedAt: true },
    });
  }

  /** The customer entities of a profile, oldest first. */
  listCustomerEntities(profileId: string) {
    return this.db.customerEntity.findMany({
      where: { profileId },
      orderBy: { createdAt: "asc" },
      select: { id: true, customerType: true, isActive: true },
    });
  }
}
