import { z } from "zod";
import { CUSTOMER_TYPES } from "../reference-data/corridors.js";
import { ONBOARDING_COUNTRIES } from "./requirements.js";

/** Corridors with monthly limits. */
const LIMIT_CORRIDORS = ["AR", "BR", "CO", "MX", "US"] as const;

export const limitsInput = z
  .object({
    corridors: z
      .array(z.enum(LIMIT_CORRIDORS))
      .min(1)
      .refine((list) => new Set(list).size === list.length, "must not repeat a corridor"),
  })
  .strict();
export type LimitsInput = z.output<typeof limitsInput>;

export const requirementsInput = z.object({
  country: z.enum(ONBOARDING_COUNTRIES),
  customerType: z.enum(CUSTOMER_TYPES),
});
export type RequirementsInput = z.output<typeof requirementsInput>;

/** Which of its entities the subject acts as: the individual or the business. */
export const activeEntityInput = z.object({ type: z.enum(CUSTOMER_TYPES) }).strict();
export type ActiveEntityInput = z.output<typeof activeEntityInput>;
