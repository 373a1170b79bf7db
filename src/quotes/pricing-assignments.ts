import { recordOperatorChange } from "../audit/service.js";
import type { OperatorActor } from "../audit/types.js";
import type { ActingContext } from "../auth/delegation.js";
import type { Caches } from "../cache/caches.js";
import type { RevocableCache } from "../cache/revocable-cache.js";
import type { ListPage } from "../validation.js";
import { z } from "zod";
import { idField, instantField, named, outputObject } from "../output.js";
import { DEFAULT_PRICING_PROFILE, PRICING_PROFILES, type PricingProfileName } from "./pricing.js";
import type { QuoteRepository } from "./repo.js";

export const pricingAssignmentView = outputObject(
  "PricingAssignment",
  "The pricing profile the operator assigned to a profile; quotes use the subject's, else its manager's, else the default.",
  {
    profileId: idField("The profile the assignment applies to (UUID)."),
    pricingProfile: named("PricingProfileName", z.string()).describe("The pricing profile assigned."),
    updatedAt: instantField("When the operator last assigned a pricing profile to this profile."),
  },
);
export type PricingAssignmentView = z.output<typeof pricingAssignmentView>;

/** Tags a profile's cached assignment (its own namespace: assigning pricing drops nothing else). */
const pricingTag = (profileId: string) => `pricing:${profileId}`;

/**
 * Which pricing profile prices a profile's quotes, as the operator assigned it. Read on every quote, so
 * each profile's assignment is cached, and dropped on every instance when the operator changes it.
 */
export class PricingAssignments {
  private readonly assigned: RevocableCache<string | null>;

  constructor(
    private readonly repository: QuoteRepository,
    private readonly caches: Caches,
  ) {
    this.assigned = caches.define("pricingAssignments");
  }

  /** The operator's assignment, audited with it. */
  async assign(
    operator: OperatorActor,
    profileId: string,
    pricingProfile: PricingProfileName,
  ): Promise<PricingAssignmentView> {
    const assignment = await this.repository.transaction(async (tx) => {
      const assigned = await this.repository.upsertPricingAssignment(tx, profileId, pricingProfile);
      await recordOperatorChange(tx, operator, {
        action: "pricing.assigned",
        targetType: "pricing-assignment",
        targetId: profileId,
        details: { pricingProfile },
      });
      return assigned;
    });
    await this.caches.invalidate(pricingTag(profileId));
    return assignment;
  }

  async get(profileId: string): Promise<PricingAssignmentView | null> {
    return this.repository.findPricingAssignment(profileId);
  }

  /** Every assignment, most recently changed first. */
  list(page: ListPage): Promise<{ assignments: PricingAssignmentView[]; total: number }> {
    return this.repository.listPricingAssignments(page);
  }

  /** The subject's pricing profile, else its manager's, else the default (anonymous callers: the default). */
  async effective(acting: ActingContext | null): Promise<PricingProfileName> {
    if (!acting) return DEFAULT_PRICING_PROFILE;
    for (const profileId of [
      acting.subjectProfileId,
      ...(acting.controllingManagerId ? [acting.controllingManagerId] : []),
    ]) {
      const name = await this.assigned.load(profileId, async () => ({
        value: (await this.get(profileId))?.pricingProfile ?? null,
        tags: [pricingTag(profileId)],
      }));
      if (name && name in PRICING_PROFILES) return name as PricingProfileName;
    }
    return DEFAULT_PRICING_PROFILE;
  }
}
