import { Field, ID, ObjectType } from "type-graphql";
import type { KycCase } from "../../kyc/service.js";
import { KycCaseStatusEnum } from "./ramps.js";
import { CorridorEnum, CustomerTypeEnum } from "./managed-profiles.js";

@ObjectType({
  description:
    "The subject's customer with the provider in a corridor, as one customer type, and its KYC (KYB) status.",
})
export class Customer {
  @Field(() => ID, { description: "The provider's customer id (the BR subaccount id)." })
  customerId!: string;

  @Field(() => CorridorEnum, { description: "The corridor whose provider holds this customer." })
  corridor!: string;

  @Field(() => CustomerTypeEnum, {
    description: "Individual customers go through KYC, business customers through KYB.",
  })
  customerType!: string;

  @Field(() => KycCaseStatusEnum, { description: "Why a case was rejected is kept by support, never returned." })
  kycStatus!: string;

  @Field({ description: "When the customer was created (ISO 8601 date-time, UTC)." })
  createdAt!: Date;

  @Field({
    description:
      "Last stored change to the customer's case (ISO 8601 date-time, UTC); a provider decision that fell due may show in kycStatus first.",
  })
  updatedAt!: Date;
}

/** A customer as the services keep it: its KYC (KYB) case. */
export const toCustomer = (row: KycCase): Customer => ({
  customerId: row.providerCustomerId,
  corridor: row.corridor,
  customerType: row.customerType,
  kycStatus: row.status,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
