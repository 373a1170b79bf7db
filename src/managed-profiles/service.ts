import { recordOperatorChange } from "../audit/service.js";
import type { OperatorActor } from "../audit/types.js";
import type { DelegationTarget, ManagedProfileDirectory, ManagerPolicy } from "../auth/delegation.js";
import type { CredentialService } from "../credentials/service.js";
import type { CredentialInput, IssuedCredential } from "../credentials/types.js";
import { isUniqueViolation } from "../db/tx.js";
import { AppError } from "../errors.js";
import type { Caches } from "../cache/caches.js";
import type { ProfileService } from "../profiles/service.js";
import { canonicalId, type ListPage } from "../validation.js";
import { toManagedProfileView, type ManagedProfileRepository } from "./repo.js";
import type { CreateManagedProfileInput, ManagedProfilesPage, ManagedProfileView } from "./types.js";

/** A page of a profile's credentials, as `listCredentials` answers it. */
export type CredentialsPage = Awaited<ReturnType<CredentialService["list"]>>;

/**
 * Headless children of a manager: creation (idempotent on the external subject), listing, reading,
 * logical deletion, and the children's credentials. Every operation is scoped to the calling manager;
 * another manager's child is not found.
 */
export class ManagedProfileService implements ManagedProfileDirectory {
  constructor(
    private readonly repository: ManagedProfileRepository,
    private readonly caches: Caches,
    private readonly credentials: CredentialService,
    private readonly profiles: ProfileService,
  ) {}

  /** A profile's manager policy, active or not; null when it was never enabled as a manager. */
  policy(managerProfileId: string): Promise<ManagerPolicy | null> {
    return this.repository.findManagerPolicy(managerProfileId);
  }

  /** Every manager's policy, newest first. */
  policies(page: ListPage): Promise<{ managers: ManagerPolicy[]; total: number }> {
    return this.repository.listManagerPolicies(page);
  }

  /** The entities a profile transacts as, oldest first. */
  customerEntities(profileId: string) {
    return this.repository.listCustomerEntities(profileId);
  }

  /** A profile as delegation checks it (null when unknown). */
  delegationTarget(childProfileId: string): Promise<DelegationTarget | null> {
    return this.repository.findDelegationTarget(childProfileId);
  }

  delegationTargets(childProfileIds: readonly string[]): Promise<Map<string, DelegationTarget>> {
    return this.repository.findDelegationTargets(childProfileIds);
  }

  /**
   * Enables, updates or disables a manager, at once on every instance; `created` is true the first time.
   * The operator's change is audited with it.
   */
  async setPolicy(
    operator: OperatorActor,
    managerProfileId: string,
    policy: Parameters<ManagedProfileRepository["upsertManagerPolicy"]>[2],
  ): Promise<{ manager: ManagerPolicy; created: boolean }> {
    const { allowedCorridors, allowedCustomerTypes, isActive } = policy;
    const created = await this.repository.transaction(async (tx) => {
      const first = await this.repository.upsertManagerPolicy(tx, managerProfileId, policy);
      await recordOperatorChange(tx, operator, {
        action: first ? "manager.created" : "manager.updated",
        targetType: "manager",
        targetId: managerProfileId,
        details: { allowedCorridors, allowedCustomerTypes, isActive },
      });
      return first;
    });
    await this.caches.invalidate(managerProfileId);
    return { manager: (await this.repository.findManagerPolicy(managerProfileId))!, created };
  }

  /**
   * The caller's policy, if it is an active manager; otherwise MANAGED_PROFILE_ACCESS_DENIED. Creating and
   * listing children check it before their input is validated, and take the policy it returns.
   */
  async activeManager(managerProfileId: string): Promise<ManagerPolicy> {
    const policy = await this.repository.findManagerPolicy(managerProfileId);
    if (!policy?.isActive) throw new AppError("MANAGED_PROFILE_ACCESS_DENIED", "The caller is not an active manager.");
    return policy;
  }

  /** Creates a child of the active manager; an identical retry returns the existing one (`created: false`). */
  async create(
    manager: ManagerPolicy,
    child: CreateManagedProfileInput,
  ): Promise<{ managedProfile: ManagedProfileView; created: boolean }> {
    const managerProfileId = manager.profileId;
    try {
      const row = await this.repository.transaction((tx) =>
        this.repository.insertManagedChild(tx, managerProfileId, child),
      );
      return { managedProfile: toManagedProfileView(row), created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    // The subject or the email is reserved: an identical, active child is a retry; anything else conflicts.
    const holders = await this.repository.findChildrenByReservedKeys(
      managerProfileId,
      child.externalSubjectId,
      child.contactEmail,
    );
    const same = holders.find(
      (row) =>
        row.externalSubjectId === child.externalSubjectId &&
        row.contactEmail === child.contactEmail &&
        row.customerType === child.customerType &&
        row.deletedAt === null,
    );
    if (same && holders.length === 1) return { managedProfile: toManagedProfileView(same), created: false };
    throw new AppError("MANAGED_PROFILE_CONFLICT");
  }

  /** A page of the active manager's children, newest first, with its policy. */
  async list(manager: ManagerPolicy, page: ManagedProfilesPage) {
    const { rows, total } = await this.repository.listManagedChildren(manager.profileId, page);
    return {
      managedProfiles: rows.map(toManagedProfileView),
      pagination: { limit: page.limit, offset: page.offset, total },
      manager,
    };
  }

  async get(managerProfileId: string, childProfileId: string): Promise<ManagedProfileView> {
    await this.activeManager(managerProfileId);
    return toManagedProfileView(await this.ownedChild(managerProfileId, childProfileId));
  }

  /** Logical deletion, idempotent: credentials revoked in the same transaction, identifiers stay reserved. */
  async delete(managerProfileId: string, childProfileId: string): Promise<void> {
    await this.activeManager(managerProfileId);
    const { id } = await this.ownedChild(managerProfileId, childProfileId);
    const deleted = await this.repository.transaction((tx) =>
      this.repository.deleteManagedChild(tx, managerProfileId, id, new Date()),
    );
    if (deleted)
      await Promise.all([
        this.caches.invalidate(id),
        this.profiles.changed(id),
        // Its credentials were revoked with it.
        this.credentials.listChanged(id),
      ]);
  }

  async createCredential(
    managerProfileId: string,
    childProfileId: string,
    input: CredentialInput,
  ): Promise<IssuedCredential> {
    const { id } = await this.activeChild(managerProfileId, childProfileId);
    return this.credentials.create(id, input, { missingSubject: "MANAGED_PROFILE_NOT_FOUND" });
  }

  /** A page of the child's credentials, newest first. */
  async listCredentials(managerProfileId: string, childProfileId: string, page: ListPage) {
    const { id } = await this.activeChild(managerProfileId, childProfileId);
    return this.credentials.list(id, page);
  }

  /**
   * `listCredentials` of several children (a page of the manager's children), the same page of each, by child:
   * a child that is not the manager's active child gets the error `listCredentials` answers for it. Three
   * statements, whatever the number of children.
   */
  async listCredentialsOfChildren(
    managerProfileId: string,
    childProfileIds: readonly string[],
    page: ListPage,
  ): Promise<Map<string, CredentialsPage | AppError>> {
    await this.activeManager(managerProfileId);
    const ids = childProfileIds.flatMap((childProfileId) => canonicalId(childProfileId) ?? []);
    const children = new Map(
      (await this.repository.findManagedChildren(managerProfileId, ids)).map((child) => [child.id, child]),
    );
    const active = [...children.values()].filter((child) => !child.deletedAt).map((child) => child.id);
    const pages = await this.credentials.listOfMany(active, page);
    return new Map(
      childProfileIds.map((childProfileId): [string, CredentialsPage | AppError] => {
        const child = children.get(canonicalId(childProfileId) ?? "");
        return [childProfileId, notActiveChild(child) ?? pages.get(child!.id)!];
      }),
    );
  }

  /** Idempotent: revoking an already revoked credential of the child answers the same. */
  async revokeCredential(managerProfileId: string, childProfileId: string, credentialId: string): Promise<void> {
    const { id } = await this.activeChild(managerProfileId, childProfileId);
    await this.credentials.revoke(id, credentialId, { idempotent: true });
  }

  private async ownedChild(managerProfileId: string, childProfileId: string) {
    const id = canonicalId(childProfileId);
    const child = id ? await this.repository.findManagedChild(managerProfileId, id) : null;
    if (!child) throw new AppError("MANAGED_PROFILE_NOT_FOUND");
    return child;
  }

  private async activeChild(managerProfileId: string, childProfileId: string) {
    await this.activeManager(managerProfileId);
    const child = await this.ownedChild(managerProfileId, childProfileId);
    const refused = notActiveChild(child);
    if (refused) throw refused;
    return child;
  }
}

/** Why a manager's child (undefined: not one of its children) cannot be acted on; nothing when it can. */
function notActiveChild(child: { deletedAt: Date | null } | undefined): AppError | undefined {
  if (!child) return new AppError("MANAGED_PROFILE_NOT_FOUND");
  if (child.deletedAt) return new AppError("MANAGED_PROFILE_NOT_FOUND", "The managed profile is deleted.");
  return undefined;
}
