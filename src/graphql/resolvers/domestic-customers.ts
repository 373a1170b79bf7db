import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { DOMESTIC_CUSTOMER_OPERATIONS as DOMESTIC } from "../../operations/customers.js";
import type { CustomerType } from "../../reference-data/corridors.js";
import type { DomesticCountry } from "../../reference-data/domestic.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import { CustomerTypeEnum } from "../types/managed-profiles.js";
import {
  DomesticCountryEnum,
  DomesticCustomer,
  DomesticKybCountryEnum,
  DomesticKybInformationInput,
  DomesticKybRelatedPersonInput,
  DomesticKybSubmission,
  DomesticKycInformationInput,
  RetryDomesticKycPayload,
} from "../types/domestic-customers.js";
import { domesticCaseView, hostedLinkView, submissionView } from "../../kyc/domestic.js";
import { idField } from "../../output.js";
import { z } from "zod";
import { payloadType } from "../types/payload.js";

const CreateDomesticIndividualCustomerPayload = payloadType("createDomesticIndividualCustomer", {
  customer: domesticCaseView.describe("The new individual customer."),
});
const CreateDomesticBusinessCustomerPayload = payloadType("createDomesticBusinessCustomer", {
  customer: domesticCaseView.describe("The new business customer."),
});
const SubmitDomesticKycInformationPayload = payloadType("submitDomesticKycInformation", {
  submission: submissionView.describe("The submission to send for review."),
});
const SendDomesticKycSubmissionPayload = payloadType("sendDomesticKycSubmission", {
  sentSubmissionId: idField("The submission sent for review."),
});
const SubmitDomesticKybInformationPayload = payloadType("submitDomesticKybInformation", {
  submission: submissionView.describe("The submission to send for review."),
});
const SendDomesticKybSubmissionPayload = payloadType("sendDomesticKybSubmission", {
  sentSubmissionId: idField("The submission sent for review."),
});
const RequestDomesticKycLinkPayload = payloadType("requestDomesticKycLink", {
  hostedLink: hostedLinkView.describe("The link to the hosted KYC and its attempt."),
});
const RequestDomesticKybLinkPayload = payloadType("requestDomesticKybLink", {
  hostedLink: hostedLinkView.describe("The link to the hosted KYB and its attempt."),
});
const ReportDomesticHostedFlowOpenedPayload = payloadType("reportDomesticHostedFlowOpened", {
  recorded: z
    .boolean()
    .describe("Always true: the opening is recorded (domesticKycStatus shows the customer's status)."),
});
const ReportDomesticHostedFlowFinishedPayload = payloadType("reportDomesticHostedFlowFinished", {
  recorded: z
    .boolean()
    .describe("Always true: the finish is recorded (domesticKycStatus shows the customer's status)."),
});

const countryArg = {
  description: "The customer's country; for a managed child the manager's current policy must allow it on changes.",
};
/**
 * Which of the country's customers a change is about. Nullable so that a null variable meets the operation's
 * schema, which refuses it as REST refuses a null `type` in a body (a non-null argument would answer INTERNAL).
 */
const changedCustomerTypeArg = {
  nullable: true,
  defaultValue: "individual",
  description:
    "INDIVIDUAL, the default: the individual customer (KYC); BUSINESS: the business one (KYB). Null is refused.",
};
/** Which customer a read is about: null is left out, as a query string cannot carry null. */
const readCustomerTypeArg = {
  nullable: true,
  defaultValue: "individual",
  description: "INDIVIDUAL, the default (null too): the individual customer (KYC); BUSINESS: the business one (KYB).",
};

/** The operations' `type` (INDIVIDUAL or BUSINESS); null stays null, for the operation's schema to refuse. */
const operationType = (customerType: CustomerType | null) => customerType?.toUpperCase() ?? null;

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
@Resolver()
export class DomesticCustomersResolver {
  @Mutation(() => CreateDomesticIndividualCustomerPayload, {
    description: "Creates the subject's individual customer in a country (one per country); its KYC starts CONSULTED.",
  })
  @Performs(DOMESTIC.createIndividualCustomer)
  async createDomesticIndividualCustomer(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateDomesticIndividualCustomerPayload>> {
    return { customer: await performField(DOMESTIC.createIndividualCustomer, context, acting, { country }) };
  }

  @Mutation(() => CreateDomesticBusinessCustomerPayload, {
    description: "Creates the subject's business customer in a country (one per country); its KYB starts CONSULTED.",
  })
  @Performs(DOMESTIC.createBusinessCustomer)
  async createDomesticBusinessCustomer(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateDomesticBusinessCustomerPayload>> {
    return { customer: await performField(DOMESTIC.createBusinessCustomer, context, acting, { country }) };
  }

  @Mutation(() => SubmitDomesticKycInformationPayload, {
    description:
      "Hands the individual customer's KYC information to the provider (USER_COMPLETED); given again before it is sent, it replaces the submission.",
  })
  @Performs(DOMESTIC.submitKycInformation)
  async submitDomesticKycInformation(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Arg("input", () => DomesticKycInformationInput, { description: "The person's information." })
    input: InstanceType<typeof DomesticKycInformationInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SubmitDomesticKycInformationPayload>> {
    return { submission: await performField(DOMESTIC.submitKycInformation, context, acting, { country, ...input }) };
  }

  @Mutation(() => SendDomesticKycSubmissionPayload, {
    description: "Sends the KYC submission for review (VERIFYING until the provider decides).",
  })
  @Performs(DOMESTIC.sendKycSubmission)
  async sendDomesticKycSubmission(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Arg("submissionId", () => ID, {
      description: "The customer's current submission; any other id is NOT_FOUND.",
    })
    submissionId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SendDomesticKycSubmissionPayload>> {
    await performField(DOMESTIC.sendKycSubmission, context, acting, { country, submissionId });
    return { sentSubmissionId: submissionId };
  }

  @Mutation(() => SubmitDomesticKybInformationPayload, {
    description:
      "Hands the business customer's KYB information to the provider; given again before it is sent, it replaces the submission.",
  })
  @Performs(DOMESTIC.submitKybInformation)
  async submitDomesticKybInformation(
    @Arg("country", () => DomesticKybCountryEnum, {
      description: "The business customer's country (KYB information is taken in CO and MX only).",
    })
    country: DomesticCountry,
    @Arg("input", () => DomesticKybInformationInput, { description: "The business's information." })
    { relatedPersons, ...input }: DomesticKybInformationInput,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SubmitDomesticKybInformationPayload>> {
    const submission = await performField(DOMESTIC.submitKybInformation, context, acting, {
      country,
      ...input,
      // A null list stays null, for the operation's schema to refuse as REST does.
      relatedPersons: relatedPersons?.map(toRelatedPerson) ?? relatedPersons,
    });
    return { submission };
  }

  @Mutation(() => SendDomesticKybSubmissionPayload, {
    description: "Sends the KYB submission for review (VERIFYING until the provider decides).",
  })
  @Performs(DOMESTIC.sendKybSubmission)
  async sendDomesticKybSubmission(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Arg("submissionId", () => ID, {
      description: "The business customer's current submission; any other id is NOT_FOUND.",
    })
    submissionId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SendDomesticKybSubmissionPayload>> {
    await performField(DOMESTIC.sendKybSubmission, context, acting, { country, submissionId });
    return { sentSubmissionId: submissionId };
  }

  @Mutation(() => RequestDomesticKycLinkPayload, {
    description:
      "A link to the provider's hosted KYC for the individual customer: a new attempt, or the one the subject already opened.",
  })
  @Performs(DOMESTIC.kycRedirectLink)
  async requestDomesticKycLink(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RequestDomesticKycLinkPayload>> {
    return { hostedLink: await performField(DOMESTIC.kycRedirectLink, context, acting, { country }) };
  }

  @Mutation(() => RequestDomesticKybLinkPayload, {
    description:
      "A link to the provider's hosted KYB for the business customer: a new attempt, or the one the subject already opened.",
  })
  @Performs(DOMESTIC.kybRedirectLink)
  async requestDomesticKybLink(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RequestDomesticKybLinkPayload>> {
    return { hostedLink: await performField(DOMESTIC.kybRedirectLink, context, acting, { country }) };
  }

  @Mutation(() => ReportDomesticHostedFlowOpenedPayload, {
    description: "Records that the subject opened the hosted flow (LINK_OPENED); again, nothing changes.",
  })
  @Performs(DOMESTIC.redirectOpened)
  async reportDomesticHostedFlowOpened(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Arg("customerType", () => CustomerTypeEnum, changedCustomerTypeArg) customerType: CustomerType | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof ReportDomesticHostedFlowOpenedPayload>> {
    const type = operationType(customerType);
    await performField(DOMESTIC.redirectOpened, context, acting, { country, type });
    return { recorded: true };
  }

  @Mutation(() => ReportDomesticHostedFlowFinishedPayload, {
    description:
      "Records that the subject finished the hosted flow: the provider decides (VERIFYING until then); again, nothing changes.",
  })
  @Performs(DOMESTIC.redirectFinished)
  async reportDomesticHostedFlowFinished(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Arg("customerType", () => CustomerTypeEnum, changedCustomerTypeArg) customerType: CustomerType | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof ReportDomesticHostedFlowFinishedPayload>> {
    const type = operationType(customerType);
    await performField(DOMESTIC.redirectFinished, context, acting, { country, type });
    return { recorded: true };
  }

  @Mutation(() => RetryDomesticKycPayload, {
    description:
      "Opens a FAILED KYC or KYB again (CONSULTED): a hosted one with a new link, an API one for new information.",
  })
  @Performs(DOMESTIC.retry)
  async retryDomesticKyc(
    @Arg("country", () => DomesticCountryEnum, countryArg) country: DomesticCountry,
    @Arg("customerType", () => CustomerTypeEnum, changedCustomerTypeArg) customerType: CustomerType | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RetryDomesticKycPayload>> {
    return performField(DOMESTIC.retry, context, acting, { country, type: operationType(customerType) });
  }

  @Query(() => DomesticCustomer, {
    nullable: true,
    description:
      "The KYC (KYB) status of the subject's customer in a country; null, with NOT_FOUND, before the customer exists.",
  })
  @Performs(DOMESTIC.kycStatus)
  async domesticKycStatus(
    @Arg("country", () => DomesticCountryEnum, { description: "The customer's country." }) country: DomesticCountry,
    @Arg("customerType", () => CustomerTypeEnum, readCustomerTypeArg)
    customerType: CustomerType | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof DomesticCustomer>> {
    const type = operationType(customerType) ?? undefined;
    return performField(DOMESTIC.kycStatus, context, acting, { country, type });
  }

  @Query(() => [DomesticKybSubmission], {
    nullable: true,
    description:
      "The business customer's KYB submission that documents are uploaded for, with the ids of the persons it declared: none before information is given, nor for a hosted KYB; null, with NOT_FOUND, without a business customer in the country.",
  })
  @Performs(DOMESTIC.kybSubmissions)
  async domesticKybSubmissions(
    @Arg("country", () => DomesticKybCountryEnum, { description: "The business customer's country (CO or MX)." })
    country: DomesticCountry,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof DomesticKybSubmission>[]> {
    return performField(DOMESTIC.kybSubmissions, context, acting, { country });
  }

  @Query(() => DomesticCustomer, {
    nullable: true,
    description:
      "The subject's customer in a country, when it was created and where it stands; null, with NOT_FOUND, before it exists.",
  })
  @Performs(DOMESTIC.customerStatus)
  async domesticCustomer(
    @Arg("country", () => DomesticCountryEnum, { description: "The customer's country." }) country: DomesticCountry,
    @Arg("customerType", () => CustomerTypeEnum, readCustomerTypeArg)
    customerType: CustomerType | null,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof DomesticCustomer>> {
    const type = operationType(customerType) ?? undefined;
    return performField(DOMESTIC.customerStatus, context, acting, { country, type });
  }
}
