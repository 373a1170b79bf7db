import { z } from "zod";
import {
  domesticCaseView,
  hostedLinkView,
  kybInformation,
  kycInformation,
  relatedPerson,
  submissionView,
} from "../../kyc/domestic.js";
import { domesticKybCountryEnum } from "../../kyc/domestic-enums.js";
import { DOMESTIC_CUSTOMER_OPERATIONS as DOMESTIC } from "../../operations/customers.js";
import { idField, inputObject } from "../../output.js";
import type { CustomerType } from "../../reference-data/corridors.js";
import type { DomesticCountry } from "../../reference-data/domestic.js";
import { operationField, operationResolver, type FieldArg } from "../operation-field.js";
import { inputType } from "../types/input-type.js";
import { CustomerTypeEnum } from "../types/managed-profiles.js";
import { graphqlEnum } from "../types/output-type.js";

const DomesticKybCountryEnum = graphqlEnum(domesticKybCountryEnum);

// The country is an argument of its own, in both information inputs.
const DomesticKycInformationInput = inputType("DomesticKycInformationInput", kycInformation.omit({ country: true }), {
  description:
    "An individual's KYC information, handed to the provider and not stored here; beyond the names, the birth date and the document number, what each country asks for is optional.",
});

// GraphQL names a related person's dni, cpf and pep as KYC information names them; the resolver maps them back.
const { dni, cpf, pep, ...personFields } = relatedPerson.shape;
const relatedPersonInput = inputObject(
  "DomesticKybRelatedPersonInput",
  "A person a business declares with its KYB information (a legal representative, an owner): handed to the provider, which gives the person an id; only the id is kept.",
  z.object({ ...personFields, documentNumber: dni, brazilianTaxId: cpf, politicallyExposed: pep }),
);
type DomesticKybRelatedPersonInput = z.input<typeof relatedPersonInput>;

const { country: _country, ...businessFields } = kybInformation.shape;
const DomesticKybInformationInput = inputType(
  "DomesticKybInformationInput",
  z.object({
    ...businessFields,
    relatedPersons: z.array(relatedPersonInput).optional().describe(businessFields.relatedPersons.description!),
  }),
  { description: "A business's KYB information, handed to the provider and not stored here." },
);

/**
 * Which of the country's customers a change is about. Nullable so that a null variable meets the operation's
 * schema, which refuses it as REST refuses a null `type` in a body (a non-null argument would answer INTERNAL).
 */
const changedCustomerType: FieldArg = {
  type: () => CustomerTypeEnum,
  nullable: true,
  defaultValue: "individual",
  description:
    "INDIVIDUAL, the default: the individual customer (KYC); BUSINESS: the business one (KYB). Null is refused.",
};
/** Which customer a read is about: null is left out, as a query string cannot carry null. */
const readCustomerType: FieldArg = {
  type: () => CustomerTypeEnum,
  nullable: true,
  defaultValue: "individual",
  description: "INDIVIDUAL, the default (null too): the individual customer (KYC); BUSINESS: the business one (KYB).",
};

/** The operations' `type` (INDIVIDUAL or BUSINESS); null stays null, for the operation's schema to refuse. */
const operationType = (customerType: CustomerType | null) => customerType?.toUpperCase() ?? null;

type CustomerArgs = { country: DomesticCountry; customerType: CustomerType | null };
const changedCustomer = ({ country, customerType }: CustomerArgs) => ({ country, type: operationType(customerType) });
/** A read's customer: a type left out (or null) reads the individual customer. */
const readCustomer = ({ country, customerType }: CustomerArgs) => ({
  country,
  type: operationType(customerType) ?? undefined,
});

const recorded = (event: string) =>
  z.boolean().describe(`Always true: the ${event} is recorded (domesticKycStatus shows the customer's status).`);

/** A related person under the operation's names (the reference's dni, cpf and pep); a null field stays null. */
const toRelatedPerson = ({
  documentNumber,
  brazilianTaxId,
  politicallyExposed,
  ...person
}: DomesticKybRelatedPersonInput) => ({ ...person, dni: documentNumber, cpf: brazilianTaxId, pep: politicallyExposed });

/**
 * Customers and KYC/KYB of the acting subject in the domestic corridors (AR, CO, MX, US): the operations of
 * REST's /v1/domestic (and of its /v1/ar, /v1/co, /v1/mx aliases, whose path names what `country` names here).
 */
export const DomesticCustomersResolver = operationResolver("DomesticCustomersResolver", [
  operationField(DOMESTIC.createIndividualCustomer, {
    mutation: "createDomesticIndividualCustomer",
    payload: { customer: domesticCaseView.describe("The new individual customer.") },
  }),
  operationField(DOMESTIC.createBusinessCustomer, {
    mutation: "createDomesticBusinessCustomer",
    payload: { customer: domesticCaseView.describe("The new business customer.") },
  }),
  operationField(DOMESTIC.submitKycInformation, {
    mutation: "submitDomesticKycInformation",
    payload: { submission: submissionView.describe("The submission to send for review.") },
    args: { input: { type: () => DomesticKycInformationInput }, country: {} },
  }),
  operationField(DOMESTIC.sendKycSubmission, {
    mutation: "sendDomesticKycSubmission",
    payload: { sentSubmissionId: idField("The submission sent for review.") },
    args: { submissionId: {}, country: {} },
    toResult: (_sent, { submissionId }) => ({ sentSubmissionId: submissionId }),
  }),
  operationField(DOMESTIC.submitKybInformation, {
    mutation: "submitDomesticKybInformation",
    payload: { submission: submissionView.describe("The submission to send for review.") },
    args: {
      input: { type: () => DomesticKybInformationInput },
      country: {
        type: () => DomesticKybCountryEnum,
        description: "The business customer's country (KYB information is taken in CO and MX only).",
      },
    },
    toInput: ({ country, input }) => {
      const { relatedPersons, ...fields } = input as { relatedPersons?: DomesticKybRelatedPersonInput[] | null };
      // A null list stays null, for the operation's schema to refuse as REST does.
      return { country, ...fields, relatedPersons: relatedPersons?.map(toRelatedPerson) ?? relatedPersons };
    },
  }),
  operationField(DOMESTIC.sendKybSubmission, {
    mutation: "sendDomesticKybSubmission",
    payload: { sentSubmissionId: idField("The submission sent for review.") },
    args: { submissionId: {}, country: {} },
    toResult: (_sent, { submissionId }) => ({ sentSubmissionId: submissionId }),
  }),
  operationField(DOMESTIC.kycRedirectLink, {
    mutation: "requestDomesticKycLink",
    payload: { hostedLink: hostedLinkView.describe("The link to the hosted KYC and its attempt.") },
  }),
  operationField(DOMESTIC.kybRedirectLink, {
    mutation: "requestDomesticKybLink",
    payload: { hostedLink: hostedLinkView.describe("The link to the hosted KYB and its attempt.") },
  }),
  operationField(DOMESTIC.redirectOpened, {
    mutation: "reportDomesticHostedFlowOpened",
    payload: { recorded: recorded("opening") },
    args: { customerType: changedCustomerType, country: {} },
    toInput: changedCustomer,
    toResult: () => ({ recorded: true }),
  }),
  operationField(DOMESTIC.redirectFinished, {
    mutation: "reportDomesticHostedFlowFinished",
    payload: { recorded: recorded("finish") },
    args: { customerType: changedCustomerType, country: {} },
    toInput: changedCustomer,
    toResult: () => ({ recorded: true }),
  }),
  operationField(DOMESTIC.retry, {
    mutation: "retryDomesticKyc",
    args: { customerType: changedCustomerType, country: {} },
    toInput: changedCustomer,
  }),
  operationField(DOMESTIC.kycStatus, {
    query: "domesticKycStatus",
    nullable: true,
    args: { customerType: readCustomerType, country: {} },
    toInput: readCustomer,
  }),
  operationField(DOMESTIC.kybSubmissions, {
    query: "domesticKybSubmissions",
    nullable: true,
    description:
      "The business customer's KYB submission that documents are uploaded for, with the ids of the persons it declared: none before information is given, nor for a hosted KYB; null, with NOT_FOUND, without a business customer in the country.",
  }),
  operationField(DOMESTIC.customerStatus, {
    query: "domesticCustomer",
    nullable: true,
    args: { customerType: readCustomerType, country: {} },
    toInput: readCustomer,
  }),
]);
