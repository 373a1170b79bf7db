import type { Corridor } from "../reference-data/corridors.js";
import type { FiatAccountDetails, FiatAccountOwner, FiatAccountRegistry } from "./fiat-account-port.js";
import { servingPartner, type Partner } from "./partners.js";

/**
 * Payout accounts at the partner serving their corridor (CORRIDOR_PARTNERS): Alfredpay is the one that pays out to
 * bank accounts (AR, CO, MX, US). A corridor it does not serve here has no accounts to register.
 */
export class PartnerFiatAccounts implements FiatAccountRegistry {
  constructor(
    private readonly corridors: Readonly<Record<Corridor, Partner | null>>,
    /** Absent when Alfredpay is not configured (nor simulated). */
    private readonly alfredpay: FiatAccountRegistry | undefined,
  ) {}

  register(owner: FiatAccountOwner, details: FiatAccountDetails): Promise<string> {
    return this.partnerOf(owner).register(owner, details);
  }

  remove(owner: FiatAccountOwner, partnerAccountId: string): Promise<void> {
    return this.partnerOf(owner).remove(owner, partnerAccountId);
  }

  private partnerOf(owner: FiatAccountOwner): FiatAccountRegistry {
    return servingPartner(this.corridors, owner.corridor, { Alfredpay: this.alfredpay });
  }
}
