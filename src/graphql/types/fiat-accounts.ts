import { described, enumOf } from "./enums.js";
import {
  AR_DOCUMENT_TYPES,
  CO_DOCUMENT_TYPES,
  FIAT_ACCOUNT_COUNTRIES,
  SHOWN_ACCOUNT_TYPES,
} from "../../fiat-accounts/rail-rules.js";
import { BANK_ACCOUNT_TYPES, FIAT_ACCOUNT_TYPES } from "../../reference-data/domestic.js";
import { inputType } from "./input-type.js";
import { connectionType } from "./connection.js";
import { registerGraphQLEnum } from "./output-type.js";
import { createFiatAccountInput, fiatAccountView } from "../../fiat-accounts/types.js";

registerGraphQLEnum(enumOf(FIAT_ACCOUNT_COUNTRIES), {
  name: "FiatAccountCountry",
  description: "The corridors with payout fiat accounts.",
  valuesConfig: described({
    AR: "Argentina: ARS payouts to a CBU or CVU (COELSA).",
    CO: "Colombia: COP payouts over ACH Colombia.",
    MX: "Mexico: MXN payouts by SPEI to a CLABE.",
    US: "United States: USD payouts by ACH or domestic wire (BANK_USA).",
  }),
});

registerGraphQLEnum(enumOf(BANK_ACCOUNT_TYPES), {
  name: "BankAccountType",
  description: "Whether a payout bank account is a checking or a savings account.",
  valuesConfig: described({ CHECKING: "A checking (current) account.", SAVINGS: "A savings account." }),
});

registerGraphQLEnum(enumOf(SHOWN_ACCOUNT_TYPES), {
  name: "FiatAccountKind",
  description:
    "What kind of account a payout account is: a checking or savings bank account, or, on a rail that takes no bank account type, the kind of number that names it.",
  valuesConfig: described({
    CHECKING: "A checking (current) account.",
    SAVINGS: "A savings account.",
    CLABE: "MX (SPEI): an account named by its 18-digit CLABE.",
    CBU: "AR (COELSA): an account named by its 22-digit CBU or CVU.",
  }),
});

registerGraphQLEnum(enumOf([...AR_DOCUMENT_TYPES, ...CO_DOCUMENT_TYPES]), {
  name: "FiatAccountDocumentType",
  description: "The account holder's document in AR and CO.",
  valuesConfig: described({
    CUIT: "AR: the tax id of a company or a self-employed person.",
    CUIL: "AR: an employee's tax id.",
    CC: "CO: cédula de ciudadanía, a citizen's identity card.",
    CE: "CO: cédula de extranjería, a foreign resident's identity card.",
    NIT: "CO: a company's tax id.",
    PP: "CO: a passport.",
    TI: "CO: tarjeta de identidad, a minor's identity card.",
  }),
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
registerGraphQLEnum(enumOf(FIAT_ACCOUNT_TYPES), {
  name: "FiatAccountType",
  description: "US: ACH, BANK_USA; MX: SPEI; AR: COELSA; CO: ACH.",
  valuesConfig: described(FIAT_ACCOUNT_TYPE_DESCRIPTIONS),
});

export const FiatAccountConnection = connectionType(fiatAccountView);

export const CreateFiatAccountInput = inputType("CreateFiatAccountInput", createFiatAccountInput, {
  description: "The fields each corridor and type requires are checked for real (ABA, CLABE, CBU, CUIT, NIT).",
});
