import { Field, InputType } from "type-graphql";
import { enumOf } from "./enums.js";
import {
  AR_DOCUMENT_TYPES,
  CO_DOCUMENT_TYPES,
  FIAT_ACCOUNT_COUNTRIES,
  SHOWN_ACCOUNT_TYPES,
} from "../../fiat-accounts/rail-rules.js";
import { BANK_ACCOUNT_TYPES, FIAT_ACCOUNT_TYPES } from "../../reference-data/domestic.js";
import { connectionType } from "./connection.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";
import { fiatAccountView } from "../../fiat-accounts/types.js";

export const FiatAccountCountryEnum = enumOf(FIAT_ACCOUNT_COUNTRIES);
registerGraphQLEnum(FiatAccountCountryEnum, {
  name: "FiatAccountCountry",
  description: "The corridors with payout fiat accounts.",
  valuesConfig: {
    AR: { description: "Argentina: ARS payouts to a CBU or CVU (COELSA)." },
    CO: { description: "Colombia: COP payouts over ACH Colombia." },
    MX: { description: "Mexico: MXN payouts by SPEI to a CLABE." },
    US: { description: "United States: USD payouts by ACH or domestic wire (BANK_USA)." },
  },
});

const BankAccountTypeEnum = enumOf(BANK_ACCOUNT_TYPES);
registerGraphQLEnum(BankAccountTypeEnum, {
  name: "BankAccountType",
  description: "Whether a payout bank account is a checking or a savings account.",
  valuesConfig: {
    CHECKING: { description: "A checking (current) account." },
    SAVINGS: { description: "A savings account." },
  },
});

const AccountKindEnum = enumOf(SHOWN_ACCOUNT_TYPES);
registerGraphQLEnum(AccountKindEnum, {
  name: "FiatAccountKind",
  description:
    "What kind of account a payout account is: a checking or savings bank account, or, on a rail that takes no bank account type, the kind of number that names it.",
  valuesConfig: {
    CHECKING: { description: "A checking (current) account." },
    SAVINGS: { description: "A savings account." },
    CLABE: { description: "MX (SPEI): an account named by its 18-digit CLABE." },
    CBU: { description: "AR (COELSA): an account named by its 22-digit CBU or CVU." },
  },
});

const FiatAccountDocumentTypeEnum = enumOf([...AR_DOCUMENT_TYPES, ...CO_DOCUMENT_TYPES]);
registerGraphQLEnum(FiatAccountDocumentTypeEnum, {
  name: "FiatAccountDocumentType",
  description: "The account holder's document in AR and CO.",
  valuesConfig: {
    CUIT: { description: "AR: the tax id of a company or a self-employed person." },
    CUIL: { description: "AR: an employee's tax id." },
    CC: { description: "CO: cédula de ciudadanía, a citizen's identity card." },
    CE: { description: "CO: cédula de extranjería, a foreign resident's identity card." },
    NIT: { description: "CO: a company's tax id." },
    PP: { description: "CO: a passport." },
    TI: { description: "CO: tarjeta de identidad, a minor's identity card." },
  },
});

const NOT_OFFERED = "Listed by the reference contract; no corridor served here accepts it.";
const FIAT_ACCOUNT_TYPE_DESCRIPTIONS: Record<(typeof FIAT_ACCOUNT_TYPES)[number], string> = {
  ACH: "ACH transfer: US domestic ACH, or ACH Colombia in CO.",
  ACH_BOL: NOT_OFFERED,
  ACH_CHL: NOT_OFFERED,
  ACH_DOM: NOT_OFFERED,
  B89: NOT_OFFERED,
  BANK_CN: NOT_OFFERED,
  BANK_USA: "US domestic wire: the ACH details plus the beneficiary's street, city, state and ZIP.",
  COELSA: "AR: a 22-digit CBU (bank) or CVU (payment provider) cleared by COELSA.",
  PIX: NOT_OFFERED,
  SPEI: "MX: a SPEI transfer to an 18-digit CLABE.",
};
const FiatAccountTypeEnum = enumOf(FIAT_ACCOUNT_TYPES);
registerGraphQLEnum(FiatAccountTypeEnum, {
  name: "FiatAccountType",
  description: "US: ACH, BANK_USA; MX: SPEI; AR: COELSA; CO: ACH.",
  valuesConfig: Object.fromEntries(
    Object.entries(FIAT_ACCOUNT_TYPE_DESCRIPTIONS).map(([type, description]) => [type, { description }]),
  ),
});

export const FiatAccount = outputType(fiatAccountView);

export const FiatAccountConnection = connectionType(fiatAccountView);

@InputType({
  description: "The fields each corridor and type requires are checked for real (ABA, CLABE, CBU, CUIT, NIT).",
})
export class CreateFiatAccountInput {
  @Field(() => FiatAccountCountryEnum, {
    description: "The corridor to pay out in; for a managed child the manager's current policy must allow it.",
  })
  country!: string;

  @Field(() => FiatAccountTypeEnum, {
    description: "The rail; it must be one the country offers (US: ACH or BANK_USA; MX: SPEI; AR: COELSA; CO: ACH).",
  })
  type!: string;

  @Field({
    description:
      "Digits, which spaces or dashes may group: US 4–17 digits, MX an 18-digit CLABE, AR a 22-digit CBU or CVU, CO 6–20 digits.",
  })
  accountNumber!: string;

  @Field(() => String, { nullable: true, description: "The account holder's name (optional, as in the reference)." })
  accountName?: string | null;

  @Field(() => BankAccountTypeEnum, { nullable: true, description: "Required in US and CO, optional elsewhere." })
  accountType?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "US: the 9-digit ABA routing number, required there; refused in MX, where the CLABE names the bank.",
  })
  routingNumber?: string | null;

  @Field(() => String, { nullable: true, description: "CO: the 4-digit ACH Colombia bank code, required there." })
  accountBankCode?: string | null;

  @Field(() => FiatAccountDocumentTypeEnum, {
    nullable: true,
    description: "AR: CUIT or CUIL; CO: CC, CE, NIT, PP or TI. Required in AR and CO.",
  })
  documentType?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "The number of that documentType, required in AR and CO; CUIT, CUIL and NIT check digits are verified.",
  })
  documentNumber?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Stored with the account (false when omitted); no rule here reads it and it is not returned.",
  })
  isExternal?: boolean | null;

  @Field(() => String, { nullable: true, description: "The bank's street address; optional and not returned." })
  bankStreet?: string | null;

  @Field(() => String, { nullable: true, description: "The bank's city; optional and not returned." })
  bankCity?: string | null;

  @Field(() => String, { nullable: true, description: "The bank's state or region; optional and not returned." })
  bankState?: string | null;

  @Field(() => String, { nullable: true, description: "The bank's postal code; optional and not returned." })
  bankPostalCode?: string | null;

  @Field(() => String, { nullable: true, description: "The bank's country; optional and not returned." })
  bankCountry?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The beneficiary's street address; required for US BANK_USA, optional elsewhere.",
  })
  beneficiaryStreet?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The beneficiary's city; required for US BANK_USA, optional elsewhere.",
  })
  beneficiaryCity?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The beneficiary's state; required for US BANK_USA, optional elsewhere.",
  })
  beneficiaryState?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "US: ZIP (12345 or 12345-6789), required for BANK_USA; elsewhere the beneficiary's postal code as given.",
  })
  beneficiaryPostalCode?: string | null;

  @Field(() => String, { nullable: true, description: "The beneficiary's country; optional and not checked." })
  beneficiaryCountry?: string | null;
}
