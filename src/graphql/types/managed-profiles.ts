import { Field, ID, InputType } from "type-graphql";
import { enumOf, namedEnumOf } from "./enums.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { PRICING_PROFILE_NAMES } from "../../quotes/pricing.js";
import { managerPolicyView } from "../../auth/delegation.js";
import {
  CREATION_SOURCES,
  MANAGED_PROFILE_STATUSES,
  createdManagedProfile,
  managedProfileView,
  type ManagedProfileView,
} from "../../managed-profiles/types.js";
import { pricingAssignmentView } from "../../quotes/pricing-assignments.js";
import { connectionType } from "./connection.js";
import { Node } from "./node.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

export const CorridorEnum = enumOf(CORRIDORS);
registerGraphQLEnum(CorridorEnum, {
  name: "Corridor",
  description: "A country corridor the gateway serves, each with one fiat currency.",
  valuesConfig: {
    AR: { description: "Argentina (ARS); managed children only as individuals." },
    BR: { description: "Brazil (BRL)." },
    CO: { description: "Colombia (COP)." },
    EU: {
      description: "The euro area over SEPA (EUR); bound to a verified login email, so never for managed children.",
    },
    MX: { description: "Mexico (MXN)." },
    US: { description: "United States (USD)." },
  },
});
export const CustomerTypeEnum = enumOf(CUSTOMER_TYPES);
registerGraphQLEnum(CustomerTypeEnum, {
  name: "CustomerType",
  description: "Whether a customer is a person or a company.",
  valuesConfig: {
    INDIVIDUAL: { description: "A person, verified by KYC." },
    BUSINESS: { description: "A company, verified by KYB." },
  },
});
const ManagedProfileStatusEnum = enumOf(MANAGED_PROFILE_STATUSES);
registerGraphQLEnum(ManagedProfileStatusEnum, {
  name: "ManagedProfileStatus",
  description: "Whether a managed child is live or logically deleted.",
  valuesConfig: {
    ACTIVE: { description: "Not deleted." },
    DELETED: { description: "Deleted: credentials revoked, new activity blocked, history kept." },
  },
});
const CreationSourceEnum = enumOf(CREATION_SOURCES);
registerGraphQLEnum(CreationSourceEnum, {
  name: "ManagedProfileCreationSource",
  description: "Who created a managed child.",
  valuesConfig: {
    MANAGER: { description: "Its manager, through createManagedProfile (REST: POST /v1/managed-profiles)." },
  },
});
export const ManagedProfileFilterEnum = enumOf(["active", "deleted", "all"] as const);
registerGraphQLEnum(ManagedProfileFilterEnum, {
  name: "ManagedProfileFilter",
  description: "Which managed children a list returns, by status.",
  valuesConfig: {
    ACTIVE: { description: "Only children that are not deleted." },
    DELETED: { description: "Only deleted children." },
    ALL: { description: "Active and deleted children alike." },
  },
});

export const ManagedProfile = outputType(managedProfileView, { implements: [Node] });
export type ManagedProfile = ManagedProfileView;

export const ManagedProfileConnection = connectionType(managedProfileView);

export const Manager = outputType(managerPolicyView);

export const CreateManagedProfilePayload = outputType(createdManagedProfile);

@InputType({ description: "A new managed child; sending the same values again returns the existing child." })
export class CreateManagedProfileInput {
  @Field({
    description:
      "The manager's own id for the subject, 1 to 255 characters once trimmed; unique per manager, reserved even after deletion.",
  })
  externalSubjectId!: string;

  @Field({
    description:
      "Provider contact email, trimmed and lower-cased, at most 255 characters; unique per manager, reserved even after deletion.",
  })
  contactEmail!: string;

  @Field(() => CustomerTypeEnum, { description: "Whether the child transacts as a person or a company." })
  customerType!: string;
}

@InputType({ description: "A manager's whole corridor policy; it replaces the previous one." })
export class ManagerPolicyInput {
  @Field(() => [CorridorEnum], {
    description: "Corridors the manager may act in for its children; duplicates are dropped.",
  })
  allowedCorridors!: string[];

  @Field(() => [CustomerTypeEnum], {
    nullable: true,
    description: "Customer types its children may transact as (at least one); null or left out for no narrowing.",
  })
  allowedCustomerTypes?: string[] | null;

  @Field({ description: "False disables the manager: its children can then be neither managed nor acted for." })
  isActive!: boolean;
}

@InputType({ description: "A partner-managed credential: the profile it is bound to, and optional name and expiry." })
export class PartnerCredentialInput {
  @Field(() => ID, {
    nullable: true,
    description: "The existing profile the credential authenticates; without one, CREDENTIAL_SUBJECT_REQUIRED.",
  })
  profileId?: string;

  @Field({ nullable: true, description: '1 to 100 characters once trimmed; default "API Credential".' })
  name?: string;

  @Field({ nullable: true, description: "In the future and at most 2 years away; default one year from now." })
  expiresAt?: Date;
}

export const PricingProfileNameEnum = namedEnumOf(PRICING_PROFILE_NAMES, (name) =>
  name.replace(/-/g, "_").toUpperCase(),
);
registerGraphQLEnum(PricingProfileNameEnum, {
  name: "PricingProfileName",
  description: "A pricing profile, by name (REST spells PARTNER_MARKUP as partner-markup).",
  valuesConfig: {
    DEFAULT: { description: "The standard fees." },
    PARTNER_MARKUP: { description: "The standard fees and a partner's markup." },
    REDUCED: { description: "Reduced fees." },
    ZERO_FEE: { description: "No service fee." },
  },
});

export const PricingAssignment = outputType(pricingAssignmentView);
