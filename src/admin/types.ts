import { z } from "zod";
import { idField, instantField, named, outputObject } from "../output.js";
import { requiredString } from "../validation.js";
import { PRICING_PROFILE_NAMES } from "../quotes/pricing.js";

export const partnerInput = z
  .object({
    name: requiredString("name is required")
      .trim()
      .min(1)
      .max(100)
      .describe("Display name, 1 to 100 characters once trimmed."),
  })
  .strict();
export const partnerStateInput = z
  .object({
    isActive: z
      .boolean({ error: "isActive must be true or false" })
      .describe("False deactivates the partner; true reactivates it."),
  })
  .strict();
export const pricingInput = z
  .object({
    pricingProfile: named("PricingProfileName", z.enum(PRICING_PROFILE_NAMES)).describe(
      "The pricing profile to assign.",
    ),
  })
  .strict();

export type PartnerInput = z.output<typeof partnerInput>;
export type PartnerStateInput = z.output<typeof partnerStateInput>;
export type PricingInput = z.output<typeof pricingInput>;

export const partnerView = outputObject("Partner", "A distribution partner.", {
  id: idField("The partner's id (UUID)."),
  name: z.string().describe("Display name, 1 to 100 characters."),
  isActive: z
    .boolean()
    .describe("False once deactivated: its credentials stop authenticating and no new ones are issued."),
  createdAt: instantField("When the operator created the partner."),
  updatedAt: instantField("When the partner's record last changed."),
});
export type PartnerView = z.output<typeof partnerView>;
