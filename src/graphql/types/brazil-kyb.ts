import {
  ACCOUNT_OPENING_REASONS,
  ANNUAL_REVENUES_USD,
  BRAZIL_DOCUMENT_TYPES,
  CONTROL_ROLES,
  EMPLOYEE_COUNTS,
  kybUboInput,
  kybDocumentInput,
  kybLevelOneInput,
  SOURCES_OF_FUNDS,
} from "../../onboarding/brazil-kyb-types.js";
import { SIDE_STATES } from "../../uploads/service.js";
import { described, enumOf, namedEnumOf, restSpellingsOf } from "./enums.js";
import { inputType } from "./input-type.js";
import { registerGraphQLEnum } from "./output-type.js";

/* Level 1 KYB of Brazilian company subaccounts: the operations REST serves under /v1/brl/kyb. */

/** REST's document types: the GraphQL names cannot hold their hyphens (DRIVERS_LICENSE is DRIVERS-LICENSE). */
registerGraphQLEnum(Object.fromEntries(BRAZIL_DOCUMENT_TYPES.map((type) => [type.replace(/-/g, "_"), type])), {
  name: "BrazilDocumentType",
  description: "A document uploaded for BR KYC or KYB (REST spells the underscores as hyphens).",
  valuesConfig: described({
    ID: "A national identity card.",
    DRIVERS_LICENSE: "A driver's license.",
    PASSPORT: "A passport (KYB documents only).",
    RESIDENCE_PERMIT: "A residence permit (KYB documents only).",
    SELFIE: "A photo of the person.",
    SELFIE_FROM_LIVENESS: "A photo of the person taken by the liveness check.",
    CERTIFICATE_OF_INCORPORATION: "The company's certificate of incorporation (KYB).",
    COMPANY_TAX_IDENTIFICATION_DOCUMENT: "The company's tax registration (KYB).",
  }),
});

registerGraphQLEnum(enumOf(SIDE_STATES), {
  name: "DocumentUploadState",
  description: "Whether a side's file arrived at its upload URL.",
  valuesConfig: described({
    PENDING: "Not yet: the URL still takes it.",
    UPLOADED: "Stored.",
    EXPIRED: "The URL lapsed before the file came: create the document again.",
    MISSING: "It arrived but is no longer stored: create the document again.",
  }),
});

// The subaccount is an argument of its own, in each of these.
export const CreateBrazilKybDocumentInput = inputType(
  "CreateBrazilKybDocumentInput",
  kybDocumentInput.omit({ subAccountId: true }),
  {
    description: "A document to upload for a company subaccount's KYB.",
  },
);

/** A field's allowed values, for its description: they are REST's and the GraphQL names cannot hold them all. */
const ControlRoleEnum = namedEnumOf(CONTROL_ROLES, (role) => role.replace(/ /g, "_").toUpperCase());
registerGraphQLEnum(ControlRoleEnum, {
  name: "BrazilControlRole",
  description: "A beneficial owner's role with control of the company (REST spells VICE_PRESIDENT as Vice President).",
  valuesConfig: restSpellingsOf(ControlRoleEnum),
});

const AccountOpeningReasonEnum = enumOf(ACCOUNT_OPENING_REASONS);
registerGraphQLEnum(AccountOpeningReasonEnum, {
  name: "BrazilAccountOpeningReason",
  description: "Why a company opens its account, as REST spells it in lowercase.",
  valuesConfig: restSpellingsOf(AccountOpeningReasonEnum),
});

const SourceOfFundsEnum = enumOf(SOURCES_OF_FUNDS);
registerGraphQLEnum(SourceOfFundsEnum, {
  name: "BrazilSourceOfFunds",
  description: "Where a company's funds come from, as REST spells it in lowercase.",
  valuesConfig: restSpellingsOf(SourceOfFundsEnum),
});

// GraphQL names cannot start with a digit nor hold "-" or "+": 1-10 is EMPLOYEES_1_TO_10, 1001+ EMPLOYEES_1001_OR_MORE.
const EmployeeCountEnum = namedEnumOf(
  EMPLOYEE_COUNTS,
  (count) => `EMPLOYEES_${count.replace("-", "_TO_").replace("+", "_OR_MORE")}`,
);
registerGraphQLEnum(EmployeeCountEnum, {
  name: "BrazilEmployeeCount",
  description: "How many people a company employs (REST: 1-10, 11-50, ..., 1001+).",
  valuesConfig: restSpellingsOf(EmployeeCountEnum),
});

// 100k_to_1m is FROM_100K_TO_1M: a GraphQL name cannot start with a digit.
const AnnualRevenueEnum = namedEnumOf(ANNUAL_REVENUES_USD, (revenue) =>
  /^\d/.test(revenue) ? `FROM_${revenue.toUpperCase()}` : revenue.toUpperCase(),
);
registerGraphQLEnum(AnnualRevenueEnum, {
  name: "BrazilAnnualRevenue",
  description: "A company's yearly revenue in US dollars (REST: less_than_100k, 100k_to_1m, ..., more_than_100m).",
  valuesConfig: restSpellingsOf(AnnualRevenueEnum),
});

export const CreateBrazilKybBeneficialOwnerInput = inputType(
  "CreateBrazilKybBeneficialOwnerInput",
  kybUboInput.omit({ subAccountId: true }),
  {
    description:
      "An ultimate beneficial owner of a company subaccount: the person's data goes to the provider and is not stored here.",
  },
);

export const SubmitBrazilKybInput = inputType("SubmitBrazilKybInput", kybLevelOneInput.omit({ subAccountId: true }), {
  description: "Level 1 KYB of a company subaccount: the company's data goes to the provider and is not stored here.",
});
