import { z } from "zod";
import { recordOperatorChange, type AuditEvents } from "../audit/service.js";
import type { AuditEventQuery, OperatorActor } from "../audit/types.js";
import type { CredentialService } from "../credentials/service.js";
import { createCredentialInput, type IssuedCredential } from "../credentials/types.js";
import { AppError } from "../errors.js";
import type { Caches } from "../cache/caches.js";
import type { ManagedProfileService } from "../managed-profiles/service.js";
import type { ProfileService } from "../profiles/service.js";
import type { ManagerPolicy } from "../auth/delegation.js";
import type { ManagerPolicyInput } from "../managed-profiles/types.js";
import type { PricingAssignments, PricingAssignmentView } from "../quotes/pricing-assignments.js";
import { canonicalId, uuid, type ListPage } from "../validation.js";
import { named, type Pagination } from "../output.js";
import type { AdminRepository } from "./repo.js";
import type { PartnerInput, PartnerStateInput, PartnerView, PricingInput } from "./types.js";

export const partnerCredentialInput = createCredentialInput.extend({
  partnerId: named("ID", uuid()).describe("The active partner the credential is attributed to (UUID)."),
  // A missing or unusable subject is the contract's CREDENTIAL_SUBJECT_REQUIRED, not a validation error.
  profileId: named("ID", z.unknown())
    .optional()
    .describe("The existing profile the credential authenticates; without one, CREDENTIAL_SUBJECT_REQUIRED."),
});
type PartnerCredentialInput = z.output<typeof partnerCredentialInput>;

/**
 * The operator's tasks (REST /v1/admin, GraphQL, CLI): manager policies, partners and their
 * credentials, pricing assignments, and the audit log of these changes. Every change takes the operator
 * who makes it and is audited in its own transaction. Changes that affect authentication are published so
 * every instance drops what it cached.
 */
export class AdminService {
  constructor(
    private readonly repository: AdminRepository,
    private readonly audit: AuditEvents,
    private readonly caches: Caches,
    private readonly credentials: CredentialService,
    private readonly pricing: PricingAssignments,
    private readonly profiles: ProfileService,
    private readonly managedProfiles: ManagedProfileService,
  ) {}

  /** Enables, updates or disables a manager; `created` is true the first time. */
  async putManager(
    operator: OperatorActor,
    profileId: string,
    policy: ManagerPolicyInput,
  ): Promise<{ manager: ManagerPolicy; created: boolean }> {
    const { id } = await this.requireOrdinaryProfile(profileId);
    return this.managedProfiles.setPolicy(operator, id, policy);
  }

  getManager(profileId: string): Promise<ManagerPolicy> {
    return foundFor(profileId, (id) => this.managedProfiles.policy(id), "No manager policy for this profile.");
  }

  async assignPricing(
    operator: OperatorActor,
    profileId: string,
    { pricingProfile }: PricingInput,
  ): Promise<PricingAssignmentView> {
    const { id } = await this.requireProfile(profileId);
    return this.pricing.assign(operator, id, pricingProfile);
  }

  getPricing(profileId: string): Promise<PricingAssignmentView> {
    return foundFor(profileId, (id) => this.pricing.get(id), "No pricing profile is assigned to this profile.");
  }

  /** Who an email belongs to: the profile that signs in with it, and managed children whose contact it is. */
  async findProfiles(email: string) {
    return { profiles: await this.profiles.findByEmail(email) };
  }

  async listManagers(page: ListPage): Promise<{ managers: ManagerPolicy[]; pagination: Pagination }> {
    const { managers, total } = await this.managedProfiles.policies(page);
    return { managers, pagination: { ...page, total } };
  }

  async listPartners(page: ListPage): Promise<{ partners: PartnerView[]; pagination: Pagination }> {
    const { partners, total } = await this.repository.listPartners(page);
    return { partners, pagination: { ...page, total } };
  }

  async listPricing(page: ListPage): Promise<{ pricingAssignments: PricingAssignmentView[]; pagination: Pagination }> {
    const { assignments, total } = await this.pricing.list(page);
    return { pricingAssignments: assignments, pagination: { ...page, total } };
  }

  async createPartner(operator: OperatorActor, { name }: PartnerInput): Promise<PartnerView> {
    return this.repository.transaction(async (tx) => {
      const partner = await this.repository.insertPartner(tx, name);
      // The name stays out of the event: it may be a person's.
      await recordOperatorChange(tx, operator, {
        action: "partner.created",
        targetType: "partner",
        targetId: partner.id,
        details: { isActive: partner.isActive },
      });
      return partner;
    });
  }

  /** Deactivating a partner stops its credentials at once, on every instance. */
  async setPartnerActive(
    operator: OperatorActor,
    partnerId: string,
    { isActive }: PartnerStateInput,
  ): Promise<PartnerView> {
    const id = canonicalId(partnerId);
    const partner = await this.repository.transaction(async (tx) => {
      const updated = id ? await this.repository.setPartnerActive(tx, id, isActive) : null;
      if (!updated) throw new AppError("NOT_FOUND", "Partner not found.");
      await recordOperatorChange(tx, operator, {
        action: isActive ? "partner.activated" : "partner.deactivated",
        targetType: "partner",
        targetId: updated.id,
        details: { isActive },
      });
      return updated;
    });
    await this.caches.invalidate(partner.id);
    return partner;
  }

  /** A partner-managed credential: attributed to the partner, authenticating only the bound profile. */
  async issuePartnerCredential(operator: OperatorActor, input: PartnerCredentialInput): Promise<IssuedCredential> {
    const { partnerId, profileId, ...credential } = input;
    const id = canonicalId(partnerId);
    const partner = id ? await this.repository.findPartner(id) : null;
    if (!partner?.isActive) throw new AppError("NOT_FOUND", "Partner not found or inactive.");
    const subject = canonicalId(profileId);
    if (!subject) throw new AppError("CREDENTIAL_SUBJECT_REQUIRED");
    return this.credentials.create(subject, credential, { partner: { partnerId: partner.id, operator } });
  }

  /** The operator's changes, newest first. */
  auditEvents(query: AuditEventQuery) {
    return this.audit.read(query);
  }

  private async requireProfile(profileId: string) {
    const id = canonicalId(profileId);
    const profile = id ? await this.profiles.find(id) : null;
    if (!profile) throw new AppError("NOT_FOUND", "Profile not found.");
    return profile;
  }

  private async requireOrdinaryProfile(profileId: string) {
    const profile = await this.requireProfile(profileId);
    if (profile.managerProfileId) {
      throw new AppError("VALIDATION_FAILED", undefined, [
        { field: "profileId", message: "a managed child cannot be a manager" },
      ]);
    }
    return profile;
  }
}

/** What `read` finds for a profile's id, or NOT_FOUND saying `missing`: an id that is no UUID finds nothing. */
async function foundFor<T>(profileId: string, read: (id: string) => Promise<T | null>, missing: string): Promise<T> {
  const id = canonicalId(profileId);
  const found = id ? await read(id) : null;
  if (!found) throw new AppError("NOT_FOUND", missing);
  return found;
}
