import { describedEnum, screamingCase } from "../enums.js";

/* The domestic corridors' enumerations (src/kyc/domestic.ts), each with what its values mean. */

/** The countries with business customers (KYB). */
export const KYB_COUNTRIES = ["CO", "MX"] as const;

export const domesticKybCountryEnum = describedEnum("DomesticKybCountry", KYB_COUNTRIES, {
  description: "The domestic corridors that take a business's KYB information through the API.",
  meanings: { CO: "Colombia.", MX: "Mexico." },
});

/** The reference's customer statuses for the domestic corridors. */
export const DOMESTIC_STATUSES = [
  "CONSULTED",
  "LINK_OPENED",
  "USER_COMPLETED",
  "VERIFYING",
  "FAILED",
  "SUCCESS",
  "UPDATE_REQUIRED",
] as const;

describedEnum("DomesticKycStatus", DOMESTIC_STATUSES, {
  description: "Where a domestic customer's KYC (KYB) stands, spelled as the REST status routes spell it.",
  meanings: {
    CONSULTED: "The customer exists; nothing was submitted or opened yet.",
    LINK_OPENED: "The hosted flow was opened and is not finished.",
    USER_COMPLETED: "Information was submitted through the API and is not sent for review yet.",
    VERIFYING: "Finished and awaiting the provider's decision.",
    FAILED: "The provider did not approve it (why stays with support); it can be retried.",
    SUCCESS: "The provider approved it.",
    UPDATE_REQUIRED: "Listed by the REST status routes; no case here reaches it.",
  },
});

export type DomesticStatus = (typeof DOMESTIC_STATUSES)[number];

export const COLOMBIAN_DOCUMENT_TYPES = ["CC", "CE"] as const;

describedEnum("ColombianDocumentType", COLOMBIAN_DOCUMENT_TYPES, {
  description: "An identity document in Colombia.",
  meanings: {
    CC: "C\u00e9dula de ciudadan\u00eda: a citizen's identity card.",
    CE: "C\u00e9dula de extranjer\u00eda: a foreign resident's identity card.",
  },
});

export const ARGENTINE_DOCUMENT_TYPES = ["DNI"] as const;

describedEnum("ArgentineDocumentType", ARGENTINE_DOCUMENT_TYPES, {
  description: "An identity document in Argentina.",
  meanings: { DNI: "Documento Nacional de Identidad: the national identity card." },
});

/** The reference's file types of a KYB submission: a business's, and a related person's. */
export const KYB_FILE_TYPES = [
  "taxIdDocument",
  "articlesIncorporation",
  "proofAddress",
  "shareholderRegistry",
  "businessLicense",
  "uploadAmlPolicy",
] as const;
export const RELATED_PERSON_FILE_TYPES = ["docFront", "docBack"] as const;

describedEnum("DomesticKybFileType", [...KYB_FILE_TYPES, ...RELATED_PERSON_FILE_TYPES], {
  description:
    "A file of a KYB submission, as REST's fileType spells it in camelCase (TAX_ID_DOCUMENT: taxIdDocument).",
  graphqlName: screamingCase,
  meanings: {
    taxIdDocument: "The business's tax id document.",
    articlesIncorporation: "The articles of incorporation.",
    proofAddress: "A proof of the business's address.",
    shareholderRegistry: "The shareholder registry.",
    businessLicense: "The business license.",
    uploadAmlPolicy: "The business's anti-money-laundering policy.",
    docFront: "A related person's identity document, front.",
    docBack: "A related person's identity document, back.",
  },
});
