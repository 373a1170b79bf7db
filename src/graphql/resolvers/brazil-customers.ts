import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { ActingContext } from "../../auth/delegation.js";
import { idempotencyKey } from "../../idempotency/service.js";
import { BRAZIL_CUSTOMER_OPERATIONS } from "../../operations/customers.js";
import type { GraphQLContext } from "../context.js";
import { Acting } from "../acting.js";
import { Performs, performField } from "../operation-field.js";
import {
  BrazilKycStatus,
  BrazilUser,
  CreateBrazilSubaccountInput,
  CreateBrazilSubaccountPayload,
  ImportBrazilKycTokenInput,
  ImportBrazilKycTokenPayload,
  RequestBrazilKycUploadsInput,
  RequestBrazilKycUploadsPayload,
  SubmitBrazilKycInput,
  SubmitBrazilKycPayload,
} from "../types/brazil-customers.js";
import {
  BrazilKybAttempt,
  BrazilKybDocument,
  CreateBrazilKybBeneficialOwnerInput,
  CreateBrazilKybBeneficialOwnerPayload,
  CreateBrazilKybDocumentInput,
  StartBrazilKybPayload,
  SubmitBrazilKybInput,
  SubmitBrazilKybPayload,
} from "../types/brazil-kyb.js";
import { RecordBrazilKycAttemptInput } from "../types/onboarding.js";
import { RampDirectionEnum } from "../types/reference-data.js";
import { DecimalScalar } from "../types/scalars.js";
import { initialKycAttemptView } from "../../onboarding/kyc-attempts.js";
import { documentUploadView } from "../../onboarding/brazil-subaccount-types.js";
import { payloadType } from "../types/payload.js";

const RecordBrazilKycAttemptPayload = payloadType("recordBrazilKycAttempt", {
  kycAttempt: initialKycAttemptView.describe("The recorded attempt, or the first record of the same start."),
});
const RequestBrazilSelfieUploadPayload = payloadType("requestBrazilSelfieUpload", {
  selfieUpload: documentUploadView.describe("Where to PUT the selfie, and its liveness check."),
});
const CreateBrazilKybDocumentPayload = payloadType("createBrazilKybDocument", {
  documentUpload: documentUploadView.describe("The opened document and where to PUT its files."),
});

const BR = BRAZIL_CUSTOMER_OPERATIONS;

/** A null optional argument is one left out: REST's query string cannot send a null either. */
const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/**
 * Brazilian customers (subaccounts) and their KYC/KYB, the same operations as REST's /v1/brl/* (its legacy
 * alias /v1/brla/* has no fields of its own). Changes pass the manager's BR policy for a child first.
 */
@Resolver()
export class BrazilCustomersResolver {
  @Mutation(() => CreateBrazilSubaccountPayload, {
    description:
      "Creates the subject's BR subaccount for a customer type, returns the existing one unchanged, or reopens a rejected one for a new KYC.",
  })
  @Performs(BR.createSubaccount)
  async createBrazilSubaccount(
    @Arg("input", () => CreateBrazilSubaccountInput, {
      description: "The customer type, name and tax id; the other fields are accepted as REST accepts them.",
    })
    { customerType, ...input }: CreateBrazilSubaccountInput,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateBrazilSubaccountPayload>> {
    const accountType = customerType === "business" ? "COMPANY" : "INDIVIDUAL";
    return performField(BR.createSubaccount, context, acting, { ...input, accountType });
  }

  @Mutation(() => SubmitBrazilKycPayload, {
    description:
      "Submits level 1 KYC of an individual subaccount: in review at once, decided after the provider's delay.",
  })
  @Performs(BR.newKyc)
  async submitBrazilKyc(
    @Arg("input", () => SubmitBrazilKycInput, { description: "The person's data and uploaded documents." })
    input: InstanceType<typeof SubmitBrazilKycInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SubmitBrazilKycPayload>> {
    return performField(BR.newKyc, context, acting, { ...input });
  }

  @Query(() => BrazilKycStatus, {
    nullable: true,
    description:
      "The KYC (KYB) status of the subject's subaccount with this tax id; null with NOT_FOUND before anything was submitted.",
  })
  @Performs(BR.kycStatus)
  async brazilKycStatus(
    @Arg("taxId", () => String, {
      description: "The subaccount's CPF or CNPJ (formatting ignored); another profile's is VALIDATION_FAILED.",
    })
    taxId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof BrazilKycStatus>> {
    return performField(BR.kycStatus, context, acting, { taxId });
  }

  @Query(() => BrazilUser, {
    nullable: true,
    description:
      "The subject's BR subaccount (by tax id, or its individual one before its company one); null with NOT_FOUND without one.",
  })
  @Performs(BR.user)
  async brazilUser(
    @Arg("taxId", () => String, {
      nullable: true,
      description: "The subaccount's CPF or CNPJ; null or left out: the subject's own subaccount.",
    })
    taxId: string | null | undefined,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof BrazilUser>> {
    return performField(BR.user, context, acting, { taxId: given(taxId) });
  }

  @Query(() => DecimalScalar, {
    description:
      "What the subject's BR subaccount may still move this calendar month in a direction, in BRL: the monthly limit less completed ramps.",
  })
  @Performs(BR.remainingLimit)
  async brazilRemainingLimit(
    @Arg("direction", () => RampDirectionEnum, { description: "BUY (BRL paid in) or SELL (BRL paid out)." })
    direction: string,
    @Arg("taxId", () => String, {
      nullable: true,
      description: "The subaccount's CPF or CNPJ; null or left out: the subject's own subaccount.",
    })
    taxId: string | null | undefined,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<string> {
    const { remainingLimit } = await performField(BR.remainingLimit, context, acting, {
      direction,
      taxId: given(taxId),
    });
    return remainingLimit.toFixed(2);
  }

  @Mutation(() => StartBrazilKybPayload, {
    description: "Starts the hosted level 1 KYB of a company subaccount; brazilKybAttempt follows it.",
  })
  @Performs(BR.startKyb)
  async startBrazilKyb(
    @Arg("subAccountId", () => ID, { description: "One of the subject's company subaccounts." })
    subAccountId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof StartBrazilKybPayload>> {
    return performField(BR.startKyb, context, acting, { subAccountId });
  }

  @Query(() => BrazilKybAttempt, {
    nullable: true,
    description: "A KYB attempt of one of the subject's company subaccounts; null with NOT_FOUND for any other id.",
  })
  @Performs(BR.kybAttemptStatus)
  async brazilKybAttempt(
    @Arg("attemptId", () => ID, { description: "The attempt startBrazilKyb returned." })
    attemptId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof BrazilKybAttempt>> {
    return performField(BR.kybAttemptStatus, context, acting, { attemptId });
  }

  @Mutation(() => ImportBrazilKycTokenPayload, {
    description:
      "Imports a KYC share token into the subject's individual subaccount; the same idempotency key and input answer the first outcome again.",
  })
  @Performs(BR.importToken)
  async importBrazilKycToken(
    @Arg("input", () => ImportBrazilKycTokenInput, { description: "The token and the subject's consent." })
    input: InstanceType<typeof ImportBrazilKycTokenInput>,
    @Arg("idempotencyKey", () => String, {
      description:
        "1 to 128 visible ASCII characters (else IDEMPOTENCY_KEY_REQUIRED), as REST's Idempotency-Key header, with which it shares its keys: another input under a used key is IDEMPOTENCY_KEY_MISMATCH, one still running IDEMPOTENCY_KEY_IN_USE.",
    })
    key: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof ImportBrazilKycTokenPayload>> {
    // The key is checked as REST checks the header, and refused after the corridor policy like it.
    let refused: unknown;
    try {
      idempotencyKey(key);
    } catch (error) {
      refused = error;
    }
    return performField(BR.importToken, context, acting, { ...input, idempotencyKey: key }, refused);
  }

  @Mutation(() => RecordBrazilKycAttemptPayload, {
    description:
      "Records that the subject started Brazilian KYC from a quote (and a widget session); recording it again answers the first record. OnboardingStatus.latestBrazilKycAttempt shows it.",
  })
  @Performs(BR.recordKycAttempt)
  async recordBrazilKycAttempt(
    @Arg("input", () => RecordBrazilKycAttemptInput, { description: "The quote, the tax id and the widget session." })
    input: InstanceType<typeof RecordBrazilKycAttemptInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RecordBrazilKycAttemptPayload>> {
    return { kycAttempt: await performField(BR.recordKycAttempt, context, acting, { ...input }) };
  }

  @Mutation(() => RequestBrazilKycUploadsPayload, {
    description:
      "Opens the uploads level 1 KYC of an individual subaccount names: its identity document and a selfie, each file PUT to its URL.",
  })
  @Performs(BR.uploadUrls)
  async requestBrazilKycUploads(
    @Arg("input", () => RequestBrazilKycUploadsInput, { description: "The subaccount and the identity document." })
    input: InstanceType<typeof RequestBrazilKycUploadsInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RequestBrazilKycUploadsPayload>> {
    return performField(BR.uploadUrls, context, acting, { ...input });
  }

  @Mutation(() => RequestBrazilSelfieUploadPayload, {
    description: "Opens a selfie upload of an individual subaccount, with its liveness check.",
  })
  @Performs(BR.selfieUpload)
  async requestBrazilSelfieUpload(
    @Arg("taxId", () => String, { description: "The individual subaccount's CPF (formatting ignored)." })
    taxId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof RequestBrazilSelfieUploadPayload>> {
    return { selfieUpload: await performField(BR.selfieUpload, context, acting, { taxId }) };
  }

  @Mutation(() => CreateBrazilKybDocumentPayload, {
    description: "Opens the upload of a document for a company subaccount's KYB; brazilKybDocument follows its files.",
  })
  @Performs(BR.createKybDocument)
  async createBrazilKybDocument(
    @Arg("subAccountId", () => ID, { description: "One of the subject's company subaccounts." })
    subAccountId: string,
    @Arg("input", () => CreateBrazilKybDocumentInput, { description: "The document's type and sides." })
    input: InstanceType<typeof CreateBrazilKybDocumentInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateBrazilKybDocumentPayload>> {
    return { documentUpload: await performField(BR.createKybDocument, context, acting, { ...input, subAccountId }) };
  }

  @Query(() => BrazilKybDocument, {
    nullable: true,
    description:
      "A KYB document of one of the subject's company subaccounts and whether its files arrived; null with NOT_FOUND for any other.",
  })
  @Performs(BR.kybDocument)
  async brazilKybDocument(
    @Arg("subAccountId", () => ID, { description: "The company subaccount the document is for." })
    subAccountId: string,
    @Arg("documentId", () => ID, { description: "The document createBrazilKybDocument opened." })
    documentId: string,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof BrazilKybDocument>> {
    return performField(BR.kybDocument, context, acting, { subAccountId, documentId });
  }

  @Mutation(() => CreateBrazilKybBeneficialOwnerPayload, {
    description:
      "Adds an ultimate beneficial owner to a company subaccount, identified by KYB documents of it whose files arrived; submitBrazilKyb names it.",
  })
  @Performs(BR.createKybUbo)
  async createBrazilKybBeneficialOwner(
    @Arg("subAccountId", () => ID, { description: "One of the subject's company subaccounts." })
    subAccountId: string,
    @Arg("input", () => CreateBrazilKybBeneficialOwnerInput, { description: "The person and their documents." })
    input: InstanceType<typeof CreateBrazilKybBeneficialOwnerInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof CreateBrazilKybBeneficialOwnerPayload>> {
    return performField(BR.createKybUbo, context, acting, { ...input, subAccountId });
  }

  @Mutation(() => SubmitBrazilKybPayload, {
    description:
      "Submits level 1 KYB of a company subaccount through the API: in review at once, decided after the provider's delay; brazilKybAttempt follows it.",
  })
  @Performs(BR.submitKybApi)
  async submitBrazilKyb(
    @Arg("subAccountId", () => ID, { description: "One of the subject's company subaccounts." })
    subAccountId: string,
    @Arg("input", () => SubmitBrazilKybInput, {
      description: "The company's data, its beneficial owners and documents.",
    })
    input: InstanceType<typeof SubmitBrazilKybInput>,
    @Acting() acting: ActingContext,
    @Ctx() context: GraphQLContext,
  ): Promise<InstanceType<typeof SubmitBrazilKybPayload>> {
    return performField(BR.submitKybApi, context, acting, { ...input, subAccountId });
  }
}
