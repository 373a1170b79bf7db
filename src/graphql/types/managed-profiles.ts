import { described, enumOf, namedEnumOf } from "./enums.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { PRICING_PROFILE_NAMES } from "../../quotes/pricing.js";
import { managerPolicyView } from "../../auth/delegation.js";
import {
  CREATION_SOURCES,
  createManagedProfileInput,
  MANAGED_PROFILE_STATUSES,
  managerPolicyInput,
  managedProfileView,
  type ManagedProfileView,
} from "../../managed-profiles/types.js";
import { createPartnerApiCredential } from "../../operations/credentials.js";
import { connectionType } from "./connection.js";
import { inputType } from "./input-type.js";
import { Node } from "./node.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

export const CorridorEnum = registerGraphQLEnum(enumOf(CORRIDORS), {
  name: "Corridor",
  description: "A country corridor the gateway serves, each with one fiat currency.",
  valuesConfig: described({
    AR: "Argentina (ARS); managed children only as individuals.",
    BR: "Brazil (BRL).",
    CO: "Colombia (COP).",
    EU: "The euro area over SEPA (EUR); bound to a verified login email, so never for managed children.",
    MX: "Mexico (MXN).",
    US: "United States (USD).",
  }),
});
export const CustomerTypeEnum = registerGraphQLEnum(enumOf(CUSTOMER_TYPES), {
  name: "CustomerType",
  description: "Whether a customer is a person or a company.",
  valuesConfig: described({ INDIVIDUAL: "A person, verified by KYC.", BUSINESS: "A company, verified by KYB." }),
});
registerGraphQLEnum(enumOf(MANAGED_PROFILE_STATUSES), {
  name: "ManagedProfileStatus",
  description: "Whether a managed child is live or logically deleted.",
  valuesConfig: described({
    ACTIVE: "Not deleted.",
    DELETED: "Deleted: credentials revoked, new activity blocked, history kept.",
  }),
});
registerGraphQLEnum(enumOf(CREATION_SOURCES), {
  name: "ManagedProfileCreationSource",
  description: "Who created a managed child.",
  valuesConfig: described({ MANAGER: "Its manager, through createManagedProfile (REST: POST /v1/managed-profiles)." }),
});
registerGraphQLEnum(enumOf(["active", "deleted", "all"] as const), {
  name: "ManagedProfileFilter",
  description: "Which managed children a list returns, by status.",
  valuesConfig: described({
    ACTIVE: "Only children that are not deleted.",
    DELETED: "Only deleted children.",
    ALL: "Active and deleted children alike.",
  }),
});

export const ManagedProfile = outputType(managedProfileView, { implements: [Node] });
export type ManagedProfile = ManagedProfileView;

export const ManagedProfileConnection = connectionType(managedProfileView);

export const Manager = outputType(managerPolicyView);

export const CreateManagedProfileInput = inputType("CreateManagedProfileInput", createManagedProfileInput, {
  description: "A new managed child; sending the same values again returns the existing child.",
});

export const ManagerPolicyInput = inputType("ManagerPolicyInput", managerPolicyInput, {
  description: "A manager's whole corridor policy; it replaces the previous one.",
});

export const PartnerCredentialInput = inputType("PartnerCredentialInput", createPartnerApiCredential.input, {
  description: "A partner-managed credential: the profile it is bound to, and optional name and expiry.",
  fields: ["profileId", "name", "expiresAt"], // the partner is an argument of its own
});

const PricingProfileNameEnum = namedEnumOf(PRICING_PROFILE_NAMES, (name) => name.replace(/-/g, "_").toUpperCase());
registerGraphQLEnum(PricingProfileNameEnum, {
  name: "PricingProfileName",
  description: "A pricing profile, by name (REST spells PARTNER_MARKUP as partner-markup).",
  valuesConfig: described({
    DEFAULT: "The standard fees.",
    PARTNER_MARKUP: "The standard fees and a partner's markup.",
    REDUCED: "Reduced fees.",
    ZERO_FEE: "No service fee.",
  }),
});
