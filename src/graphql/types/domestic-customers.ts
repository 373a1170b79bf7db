import { z } from "zod";
import {
  DOMESTIC_STATUSES,
  KYB_COUNTRIES,
  KYB_FILE_TYPES,
  kybInformation,
  kycInformation,
  RELATED_PERSON_FILE_TYPES,
  relatedPerson,
} from "../../kyc/domestic.js";
import { inputObject } from "../../output.js";
import { DOMESTIC_COUNTRIES } from "../../reference-data/domestic.js";
import { inputType } from "./input-type.js";
import { described, enumOf, screamingEnumOf } from "./enums.js";
import { registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(DOMESTIC_COUNTRIES), {
  name: "DomesticCountry",
  description: "The corridors whose customers and KYC/KYB go through the domestic provider (REST: /v1/domestic).",
  valuesConfig: described({
    AR: "Argentina; a managed child here only as an individual.",
    CO: "Colombia.",
    MX: "Mexico.",
    US: "United States.",
  }),
});

export const DomesticKybCountryEnum = registerGraphQLEnum(enumOf(KYB_COUNTRIES), {
  name: "DomesticKybCountry",
  description: "The domestic corridors that take a business's KYB information through the API.",
  valuesConfig: described({ CO: "Colombia.", MX: "Mexico." }),
});

registerGraphQLEnum(enumOf(DOMESTIC_STATUSES), {
  name: "DomesticKycStatus",
  description: "Where a domestic customer's KYC (KYB) stands, spelled as the REST status routes spell it.",
  valuesConfig: described({
    CONSULTED: "The customer exists; nothing was submitted or opened yet.",
    LINK_OPENED: "The hosted flow was opened and is not finished.",
    USER_COMPLETED: "Information was submitted through the API and is not sent for review yet.",
    VERIFYING: "Finished and awaiting the provider's decision.",
    FAILED: "The provider did not approve it (why stays with support); it can be retried.",
    SUCCESS: "The provider approved it.",
    UPDATE_REQUIRED: "Listed by the REST status routes; no case here reaches it.",
  }),
});

registerGraphQLEnum(enumOf(["CC", "CE"] as const), {
  name: "ColombianDocumentType",
  description: "An identity document in Colombia.",
  valuesConfig: described({
    CC: "Cédula de ciudadanía: a citizen's identity card.",
    CE: "Cédula de extranjería: a foreign resident's identity card.",
  }),
});

registerGraphQLEnum(enumOf(["DNI"] as const), {
  name: "ArgentineDocumentType",
  description: "An identity document in Argentina.",
  valuesConfig: described({ DNI: "Documento Nacional de Identidad: the national identity card." }),
});

// The country is an argument of its own.
export const DomesticKycInformationInput = inputType(
  "DomesticKycInformationInput",
  kycInformation.omit({ country: true }),
  {
    description:
      "An individual's KYC information, handed to the provider and not stored here; beyond the names, the birth date and the document number, what each country asks for is optional.",
  },
);

registerGraphQLEnum(screamingEnumOf([...KYB_FILE_TYPES, ...RELATED_PERSON_FILE_TYPES]), {
  name: "DomesticKybFileType",
  description:
    "A file of a KYB submission, as REST's fileType spells it in camelCase (TAX_ID_DOCUMENT: taxIdDocument).",
  valuesConfig: described({
    TAX_ID_DOCUMENT: "The business's tax id document.",
    ARTICLES_INCORPORATION: "The articles of incorporation.",
    PROOF_ADDRESS: "A proof of the business's address.",
    SHAREHOLDER_REGISTRY: "The shareholder registry.",
    BUSINESS_LICENSE: "The business license.",
    UPLOAD_AML_POLICY: "The business's anti-money-laundering policy.",
    DOC_FRONT: "A related person's identity document, front.",
    DOC_BACK: "A related person's identity document, back.",
  }),
});

// GraphQL names a related person's dni, cpf and pep as KYC information names them; the resolver maps them back.
const { dni, cpf, pep, ...personFields } = relatedPerson.shape;
const relatedPersonInput = inputObject(
  "DomesticKybRelatedPersonInput",
  "A person a business declares with its KYB information (a legal representative, an owner): handed to the provider, which gives the person an id; only the id is kept.",
  z.object({ ...personFields, documentNumber: dni, brazilianTaxId: cpf, politicallyExposed: pep }),
);
export type DomesticKybRelatedPersonInput = z.input<typeof relatedPersonInput>;

// The country is an argument of its own.
const { country: _country, ...businessFields } = kybInformation.shape;
export const DomesticKybInformationInput = inputType(
  "DomesticKybInformationInput",
  z.object({
    ...businessFields,
    relatedPersons: z.array(relatedPersonInput).optional().describe(businessFields.relatedPersons.description!),
  }),
  { description: "A business's KYB information, handed to the provider and not stored here." },
);
