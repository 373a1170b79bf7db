import { Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { enumOf } from "./enums.js";
import { CORRIDORS, CUSTOMER_TYPES } from "../../reference-data/corridors.js";
import { Connection } from "./connection.js";

export const CorridorEnum = enumOf(CORRIDORS);
registerEnumType(CorridorEnum, { name: "Corridor" });
export const CustomerTypeEnum = enumOf(CUSTOMER_TYPES);
registerEnumType(CustomerTypeEnum, { name: "CustomerType" });
const ManagedProfileStatusEnum = enumOf(["active", "deleted"] as const);
registerEnumType(ManagedProfileStatusEnum, { name: "ManagedProfileStatus" });
export const ManagedProfileFilterEnum = enumOf(["active", "deleted", "all"] as const);
registerEnumType(ManagedProfileFilterEnum, { name: "ManagedProfileFilter" });

@ObjectType({ description: "A headless child profile created and controlled by a manager." })
export class ManagedProfile {
  @Field(() => ID)
  profileId!: string;

  @Field({ description: "Immutable, unique per manager; reserved even after deletion." })
  externalSubjectId!: string;

  @Field({ description: "Normalized provider contact email; never a login identity." })
  contactEmail!: string;

  @Field(() => CustomerTypeEnum)
  customerType!: string;

  @Field(() => ManagedProfileStatusEnum)
  status!: string;

  @Field(() => Date, { nullable: true })
  deletedAt!: Date | null;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

export const ManagedProfileConnection = Connection(ManagedProfile, "ManagedProfile");

@ObjectType({ description: "A manager's corridor policy, set by the operator." })
export class Manager {
  @Field(() => ID)
  profileId!: string;

  @Field(() => [CorridorEnum])
  allowedCorridors!: string[];

  @Field(() => [CustomerTypeEnum], {
    nullable: true,
    description: "Null: no narrowing beyond the corridor capability table.",
  })
  allowedCustomerTypes!: string[] | null;

  @Field()
  isActive!: boolean;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

@ObjectType()
export class ManagedProfilePayload {
  @Field(() => ManagedProfile)
  managedProfile!: ManagedProfile;

  @Field({ description: "False when an identical earlier creation was returned." })
  created!: boolean;
}

@InputType()
export class CreateManagedProfileInput {
  @Field()
  externalSubjectId!: string;

  @Field()
  contactEmail!: string;

  @Field(() => CustomerTypeEnum)
  customerType!: string;
}

@InputType()
export class ManagerPolicyInput {
  @Field(() => [CorridorEnum])
  allowedCorridors!: string[];

  @Field(() => [CustomerTypeEnum], { nullable: true })
  allowedCustomerTypes?: string[] | null;

  @Field()
  isActive!: boolean;
}

@ObjectType({ description: "A distribution partner." })
export class Partner {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  isActive!: boolean;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}

@InputType()
export class PartnerCredentialInput {
  @Field(() => ID, {
    nullable: true,
    description: "The existing profile the credential authenticates; without one, CREDENTIAL_SUBJECT_REQUIRED.",
  })
  profileId?: string;

  @Field({ nullable: true })
  name?: string;

  @Field({ nullable: true })
  expiresAt?: Date;
}

@ObjectType()
export class PricingAssignment {
  @Field(() => ID)
  profileId!: string;

  @Field()
  pricingProfile!: string;

  @Field()
  updatedAt!: Date;
}
