import { z } from "zod";
import { kybInformation, kycInformation, relatedPerson } from "../../kyc/domestic.js";
import { domesticKybCountryEnum } from "../../kyc/domestic-enums.js";
import { inputObject } from "../../output.js";
import { inputType } from "./input-type.js";
import { graphqlEnum } from "./output-type.js";

export const DomesticKybCountryEnum = graphqlEnum(domesticKybCountryEnum);

// The country is an argument of its own.
export const DomesticKycInformationInput = inputType(
  "DomesticKycInformationInput",
  kycInformation.omit({ country: true }),
  {
    description:
      "An individual's KYC information, handed to the provider and not stored here; beyond the names, the birth date and the document number, what each country asks for is optional.",
  },
);

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
