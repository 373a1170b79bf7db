import { z } from "zod";
import { idField, instantField, named, outputObject } from "../output.js";
import { RAMP_TYPES } from "../quotes/types.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../reference-data/corridors.js";
import { KYC_PROVIDERS, ONBOARDING_COUNTRIES } from "./requirements.js";
import { describedEnum, screamingCase } from "../enums.js";

/** Corridors with monthly limits. */
const LIMIT_CORRIDORS = ["AR", "BR", "CO", "MX", "US"] as const;

export const limitsInput = z
  .object({
    corridors: z
      .array(named("Corridor", z.enum(LIMIT_CORRIDORS)))
      .min(1)
      .refine((list) => new Set(list).size === list.length, "must not repeat a corridor")
      .describe("At least one corridor, none repeated; EU has no monthly limits and is refused."),
  })
  .strict();
export type LimitsInput = z.output<typeof limitsInput>;

export const requirementsInput = z.object({
  country: named("Corridor", z.enum(ONBOARDING_COUNTRIES)).describe(
    "AR, BR, CO, MX or US; EU has no onboarding and is refused.",
  ),
  customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe("Whether a person or a company onboards."),
});
export type RequirementsInput = z.output<typeof requirementsInput>;

/** Which of its entities the subject acts as: the individual or the business. */
export const activeEntityInput = z
  .object({
    type: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe("The entity to act as: the person or the company."),
  })
  .strict();
export type ActiveEntityInput = z.output<typeof activeEntityInput>;

export const activeEntityView = outputObject(
  "ActiveEntity",
  "The entity the signed-in profile acts as, once chosen (selectActiveEntity).",
  {
    activeEntityId: idField("The entity's id (OnboardingStatus.activeEntityId from now on)."),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "Whether the chosen entity is a person or a company.",
    ),
  },
);
export type ActiveEntityView = z.output<typeof activeEntityView>;

const LIMIT_PERIOD_TYPES = ["calendar_month"] as const;

describedEnum("LimitPeriodType", LIMIT_PERIOD_TYPES, {
  description: "How a limit's use is counted.",
  meanings: { calendar_month: "Over the calendar month, in UTC." },
});

/** The subject's monthly maximum and use in one corridor and direction. */
const userLimitView = outputObject(
  "UserLimit",
  "The subject's monthly maximum and use in one corridor and direction.",
  {
    corridor: named("Corridor", z.enum(CORRIDORS)).describe("One of the limit corridors: AR, BR, CO, MX or US."),
    currency: named("FiatCurrencySymbol", z.string()).describe(
      "The corridor's fiat, in which max and used are stated.",
    ),
    direction: named("RampDirection", z.enum(RAMP_TYPES)).describe(
      "The direction the limit applies to; each corridor has one per direction.",
    ),
    max: named("Decimal", z.string()).describe("The most the period allows, in the currency."),
    used: named("Decimal", z.string()).describe("Completed ramps this period, in the currency."),
    period: outputObject("LimitPeriod", "The period a limit's use is counted over.", {
      type: named("LimitPeriodType", z.enum(LIMIT_PERIOD_TYPES)).describe("Always the calendar month (UTC)."),
      startsAt: instantField("The first day of the current month, 00:00 UTC."),
      endsAt: instantField("Exclusive end: the first day of the next month, 00:00 UTC."),
    }).describe("The calendar month the limit and its use apply to."),
  },
);
export type UserLimit = z.output<typeof userLimitView>;
export const userLimitList = z.object({ limits: z.array(userLimitView) });

/** What ramp-info tells of KYC (CONTRACT.md): a case in review is still pending there. */
const ELIGIBILITY_KYC_STATUSES = ["not_started", "pending", "approved", "rejected"] as const;

describedEnum("KycStatus", ELIGIBILITY_KYC_STATUSES, {
  description: "KYC as eligibility tells it: a case in review is PENDING.",
  graphqlName: screamingCase,
  meanings: {
    not_started: "Nothing submitted in the corridor yet.",
    pending: "Submitted and not yet decided (a case in review included).",
    approved: "Verification approved.",
    rejected: "Verification rejected.",
  },
});

/** Whether the subject can ramp in one corridor. */
export const corridorEligibilityShape = {
  kycStatus: named("KycStatus", z.enum(ELIGIBILITY_KYC_STATUSES)).describe(
    "The subject's KYC/KYB status in the corridor.",
  ),
  canBuy: z
    .boolean()
    .describe(
      "True when KYC is approved, the corridor supports buying and, for a managed child, the manager's current policy allows the corridor.",
    ),
  canSell: z
    .boolean()
    .describe(
      "True when KYC is approved, the corridor supports selling and, for a managed child, the manager's current policy allows the corridor.",
    ),
};

const corridorEligibility = z.object(corridorEligibilityShape);
export type CorridorEligibility = z.output<typeof corridorEligibility>;

/** The subject's ramp eligibility in every corridor (no personal data, ids or limits), keyed by corridor. */
export const rampInfoView = z.object({
  // Every corridor is always listed: an object with each one, not a record, so the document names them.
  corridors: z.object(Object.fromEntries(CORRIDORS.map((corridor) => [corridor, corridorEligibility]))),
});

/** An account's states: a case under way (pending or in review) is pending. */
const ACCOUNT_STATES = ["pending", "approved", "rejected"] as const;

describedEnum("OnboardingAccountStatus", ACCOUNT_STATES, {
  description: "A provider account's verification: a case under way (submitted or in review) is PENDING.",
  meanings: {
    pending: "Submitted and not yet decided.",
    approved: "The provider approved the KYC (KYB).",
    rejected: "The provider rejected the KYC (KYB).",
  },
});

const ENTITY_STATUSES = ["active", "archived", "blocked"] as const;

describedEnum("OnboardingEntityStatus", ENTITY_STATUSES, {
  description: "Whether the subject may transact as an entity.",
  meanings: {
    active: "The subject may transact as it.",
    archived: "Kept for history; no longer used.",
    blocked: "Stopped by support.",
  },
});

const ONBOARDING_ROLES = ["managed_profile"] as const;

describedEnum("OnboardingRole", ONBOARDING_ROLES, {
  description: "A role the subject onboards in.",
  meanings: { managed_profile: "The subject is a manager's child (through the selector or its own key)." },
});

export const onboardingAccountView = outputObject(
  "OnboardingAccount",
  "The subject's account with a provider in one corridor: its KYC (KYB) case.",
  {
    id: idField("The provider's customer id (Customer.customerId; in BR the subaccount)."),
    provider: named("KycProvider", z.enum(KYC_PROVIDERS)).describe("The provider holding the account."),
    corridor: named("Corridor", z.enum(CORRIDORS)).describe("The corridor the account is in."),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "The entity's customer type: KYC for individuals, KYB for businesses.",
    ),
    status: named("OnboardingAccountStatus", z.enum(ACCOUNT_STATES)).describe("The verification's state."),
  },
);
export type OnboardingAccountView = z.output<typeof onboardingAccountView>;

export const onboardingEntityView = outputObject(
  "OnboardingEntity",
  "An entity (a person or a company) the subject transacts as.",
  {
    id: idField("The entity's id; stable."),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe(
      "Whether the entity is a person or a company.",
    ),
    status: named("OnboardingEntityStatus", z.enum(ENTITY_STATUSES)).describe(
      "Whether the subject may transact as it.",
    ),
    accounts: z
      .array(onboardingAccountView)
      .describe(
        "Its provider accounts with a case under way or decided (none before anything was submitted); a child's only in the corridors a child may use.",
      ),
  },
);

export const onboardingStatusView = outputObject(
  "OnboardingStatus",
  "The subject's onboarding across corridors: its entities and their provider accounts.",
  {
    activeEntityId: idField(
      "The entity the subject transacts as; null when it has none or several (see selectionRequired).",
    ).nullable(),
    selectionRequired: z.boolean().describe("True when several entities are active and one must be chosen."),
    roles: z
      .array(named("OnboardingRole", z.enum(ONBOARDING_ROLES)))
      .describe("The roles the subject onboards in; empty for a direct profile."),
    entities: z.array(onboardingEntityView).describe("The subject's entities, oldest first."),
  },
);
export type OnboardingStatusView = z.output<typeof onboardingStatusView>;
