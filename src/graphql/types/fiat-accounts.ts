import { Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { enumOf } from "./enums.js";
import { FIAT_ACCOUNT_COUNTRIES, FIAT_ACCOUNT_TYPES } from "../../fiat-accounts/rules.js";
import { Connection } from "./connection.js";

export const FiatAccountCountryEnum = enumOf(FIAT_ACCOUNT_COUNTRIES);
registerEnumType(FiatAccountCountryEnum, {
  name: "FiatAccountCountry",
  description: "The corridors with payout fiat accounts.",
});
const FiatAccountTypeEnum = enumOf(FIAT_ACCOUNT_TYPES);
registerEnumType(FiatAccountTypeEnum, {
  name: "FiatAccountType",
  description: "US: ACH, BANK_USA; MX: SPEI; AR: COELSA; CO: ACH.",
});

@ObjectType({ description: "A payout bank account of the subject; SELL ramps of its corridor pay out to it." })
export class FiatAccount {
  @Field(() => ID)
  fiatAccountId!: string;

  @Field(() => ID, { description: "The subject's provider account (customer) in the account's country." })
  customerId!: string;

  @Field(() => FiatAccountCountryEnum)
  country!: string;

  @Field(() => FiatAccountTypeEnum)
  type!: string;

  @Field({ description: "Masked: only the last four characters are shown." })
  accountNumber!: string;

  @Field()
  accountName!: string;

  @Field(() => String, { nullable: true })
  accountType!: string | null;

  @Field(() => String, { nullable: true })
  routingNumber!: string | null;

  @Field(() => String, { nullable: true })
  accountBankCode!: string | null;

  @Field()
  createdAt!: Date;
}

export const FiatAccountConnection = Connection(FiatAccount, "FiatAccount");

@InputType({
  description: "The fields each corridor and type requires are checked for real (ABA, CLABE, CBU, CUIT, NIT).",
})
export class CreateFiatAccountInput {
  @Field(() => FiatAccountCountryEnum)
  country!: string;

  @Field(() => FiatAccountTypeEnum)
  type!: string;

  @Field()
  accountNumber!: string;

  @Field(() => String, { nullable: true })
  accountName?: string | null;

  @Field(() => String, { nullable: true, description: "checking or savings." })
  accountType?: string | null;

  @Field(() => String, { nullable: true, description: "US: the ABA routing number." })
  routingNumber?: string | null;

  @Field(() => String, { nullable: true, description: "CO: the ACH Colombia bank code." })
  accountBankCode?: string | null;

  @Field(() => String, { nullable: true, description: "AR: CUIT or CUIL; CO: CC, CE, NIT, PP or TI." })
  documentType?: string | null;

  @Field(() => String, { nullable: true })
  documentNumber?: string | null;

  @Field(() => Boolean, { nullable: true })
  isExternal?: boolean | null;

  @Field(() => String, { nullable: true })
  bankStreet?: string | null;

  @Field(() => String, { nullable: true })
  bankCity?: string | null;

  @Field(() => String, { nullable: true })
  bankState?: string | null;

  @Field(() => String, { nullable: true })
  bankPostalCode?: string | null;

  @Field(() => String, { nullable: true })
  bankCountry?: string | null;

  @Field(() => String, { nullable: true })
  beneficiaryStreet?: string | null;

  @Field(() => String, { nullable: true })
  beneficiaryCity?: string | null;

  @Field(() => String, { nullable: true })
  beneficiaryState?: string | null;

  @Field(() => String, { nullable: true, description: "US: ZIP (12345 or 12345-6789)." })
  beneficiaryPostalCode?: string | null;

  @Field(() => String, { nullable: true })
  beneficiaryCountry?: string | null;
}
