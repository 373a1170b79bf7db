import { z } from "zod";
import { requiredString } from "../validation.js";
import { PRICING_PROFILE_NAMES } from "../quotes/pricing.js";

export const partnerInput = z.object({ name: requiredString("name is required").trim().min(1).max(100) }).strict();
export const partnerStateInput = z
  .object({ isActive: z.boolean({ error: "isActive must be true or false" }) })
  .strict();
export const pricingInput = z.object({ pricingProfile: z.enum(PRICING_PROFILE_NAMES) }).strict();

export type PartnerInput = z.output<typeof partnerInput>;
export type PartnerStateInput = z.output<typeof partnerStateInput>;
export type PricingInput = z.output<typeof pricingInput>;

export interface PartnerView {
  id: string;
  name: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}
