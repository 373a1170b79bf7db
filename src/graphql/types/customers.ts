import { Field, ID, ObjectType } from "type-graphql";
import { KycCaseStatusEnum } from "./ramps.js";
import { CorridorEnum, CustomerTypeEnum } from "./managed-profiles.js";

@ObjectType({
  description:
    "The subject's customer with the provider in a corridor, as one customer type, and its KYC (KYB) status.",
})
export class Customer {
  @Field(() => ID, { description: "The provider's customer id (the BR subaccount id)." })
  customerId!: string;

  @Field(() => CorridorEnum)
  corridor!: string;

  @Field(() => CustomerTypeEnum, { description: "individual: KYC; business: KYB." })
  customerType!: string;

  @Field(() => KycCaseStatusEnum, { description: "Why a case was rejected is kept by support, never returned." })
  kycStatus!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;
}
