import { Field, ID, InputType, ObjectType } from "type-graphql";
import { enumOf, namedEnumOf } from "./enums.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { PRICING_PROFILE_NAMES } from "../../quotes/pricing.js";
import { CREATION_SOURCES } from "../../managed-profiles/types.js";
import { Connection } from "./connection.js";
import { Node } from "./node.js";
import { registerGraphQLEnum } from "./output-type.js";

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
const ManagedProfileStatusEnum = enumOf(["active", "deleted"] as const);
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

@ObjectType({ description: "A headless child profile created and controlled by a manager.", implements: Node })
export class ManagedProfile {
  @Field(() => ID, { description: "The child's profile id (UUID), the value X-Managed-Profile-Id takes." })
  profileId!: string;

  @Field({ description: "Immutable, unique per manager; reserved even after deletion." })
  externalSubjectId!: string;

  @Field({ description: "Normalized provider contact email; never a login identity." })
  contactEmail!: string;

  @Field(() => CustomerTypeEnum, {
    description: "Whether the child transacts as a person or a company; set at creation.",
  })
  customerType!: string;

  @Field(() => CreationSourceEnum, { description: "Who created the child; every child here is its manager's." })
  creationSource!: string;

  @Field(() => ManagedProfileStatusEnum, { description: "DELETED once the manager deleted the child." })
  status!: string;

  @Field(() => Date, { nullable: true, description: "When the child was deleted; null while it is active." })
  deletedAt!: Date | null;

  @Field({ description: "When the manager created the child." })
  createdAt!: Date;

  @Field({ description: "When the child's record last changed." })
  updatedAt!: Date;
}

export const ManagedProfileConnection = Connection(ManagedProfile, "ManagedProfile");

@ObjectType({ description: "A manager's corridor policy, set by the operator." })
export class Manager {
  @Field(() => ID, { description: "The manager's profile id (UUID)." })
  profileId!: string;

  @Field(() => [CorridorEnum], {
    description: "Corridors the manager may act in for its children, sorted; the capability table still applies.",
  })
  allowedCorridors!: string[];

  @Field(() => [CustomerTypeEnum], {
    nullable: true,
    description: "Null: no narrowing beyond the corridor capability table.",
  })
  allowedCustomerTypes!: string[] | null;

  @Field({
    description: "False once the operator disables the manager: its children can be neither managed nor acted for.",
  })
  isActive!: boolean;

  @Field({ description: "When the operator first enabled the manager." })
  createdAt!: Date;

  @Field({ description: "When the operator last changed the policy." })
  updatedAt!: Date;
}

@ObjectType({ description: "The outcome of createManagedProfile." })
export class CreateManagedProfilePayload {
  @Field(() => ManagedProfile, { description: "The new child, or the existing one an identical retry matched." })
  managedProfile!: ManagedProfile;

  @Field({ description: "False when an identical earlier creation was returned." })
  created!: boolean;
}

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

@ObjectType({ description: "A distribution partner." })
export class Partner {
  @Field(() => ID, { description: "The partner's id (UUID)." })
  id!: string;

  @Field({ description: "Display name, 1 to 100 characters." })
  name!: string;

  @Field({ description: "False once deactivated: its credentials stop authenticating and no new ones are issued." })
  isActive!: boolean;

  @Field({ description: "When the operator created the partner." })
  createdAt!: Date;

  @Field({ description: "When the partner's record last changed." })
  updatedAt!: Date;
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

@ObjectType({
  description:
    "The pricing profile the operator assigned to a profile; quotes use the subject's, else its manager's, else DEFAULT.",
})
export class PricingAssignment {
  @Field(() => ID, { description: "The profile the assignment applies to (UUID)." })
  profileId!: string;

  @Field(() => PricingProfileNameEnum, { description: "The pricing profile assigned." })
  pricingProfile!: string;

  @Field({ description: "When the operator last assigned a pricing profile to this profile." })
  updatedAt!: Date;
}
