import {
  DOCUMENT_COLLECTIONS,
  KYC_PROVIDERS,
  ONBOARDING_DOCUMENT_TYPES,
  ONBOARDING_MODES,
  STEP_KINDS,
} from "../../onboarding/requirements.js";
import { described, enumOf, namedEnumOf } from "./enums.js";
import { inputType } from "./input-type.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";
import { initialKycAttemptInput, initialKycAttemptView } from "../../onboarding/kyc-attempts.js";
import { ACCOUNT_STATES, ENTITY_STATUSES, ONBOARDING_ROLES, onboardingStatusView } from "../../onboarding/types.js";

registerGraphQLEnum(enumOf(KYC_PROVIDERS), {
  name: "KycProvider",
  description: "A partner that holds customers and decides their KYC (KYB).",
  valuesConfig: described({
    ALFREDPAY: "Alfredpay: Argentina, Colombia, Mexico and the United States.",
    AVENIA: "Avenia: Brazil.",
  }),
});

registerGraphQLEnum(enumOf(ONBOARDING_DOCUMENT_TYPES), {
  name: "OnboardingDocumentType",
  description: "A document a KYC (KYB) flow asks for, as REST spells it in lowercase.",
  valuesConfig: described({
    IDENTITY_DOCUMENT_FRONT: "The front of a government-issued identity document.",
    IDENTITY_DOCUMENT_BACK: "The back of the identity document.",
    SELFIE: "A photo of the person holding the document.",
    INCORPORATION_CERTIFICATE: "The certificate of incorporation or a registry extract.",
    PROOF_OF_ADDRESS: "The company's proof of address.",
    UBO_IDENTITY_DOCUMENT: "The identity document of an ultimate beneficial owner.",
  }),
});

registerGraphQLEnum(enumOf(ONBOARDING_ROLES), {
  name: "OnboardingRole",
  description: "A role the subject onboards in.",
  valuesConfig: described({
    MANAGED_PROFILE: "The subject is a manager's child (through the selector or its own key).",
  }),
});

registerGraphQLEnum(enumOf(ENTITY_STATUSES), {
  name: "OnboardingEntityStatus",
  description: "Whether the subject may transact as an entity.",
  valuesConfig: described({
    ACTIVE: "The subject may transact as it.",
    ARCHIVED: "Kept for history; no longer used.",
    BLOCKED: "Stopped by support.",
  }),
});

registerGraphQLEnum(enumOf(ACCOUNT_STATES), {
  name: "OnboardingAccountStatus",
  description: "A provider account's verification: a case under way (submitted or in review) is PENDING.",
  valuesConfig: described({
    PENDING: "Submitted and not yet decided.",
    APPROVED: "The provider approved the KYC (KYB).",
    REJECTED: "The provider rejected the KYC (KYB).",
  }),
});

registerGraphQLEnum(enumOf(ONBOARDING_MODES), {
  name: "OnboardingMode",
  description: "How a flow collects what it needs.",
  valuesConfig: described({
    API: "Every step is an API call of the integrator's.",
    HOSTED: "The provider's hosted pages collect everything.",
    HYBRID: "Some steps are API calls, others hosted pages.",
  }),
});

/** REST spells these in kebab case, which GraphQL names cannot hold. */
const kebabName = (kind: string) => kind.replace("-", "_").toUpperCase();

registerGraphQLEnum(namedEnumOf(STEP_KINDS, kebabName), {
  name: "OnboardingStepKind",
  description: "What a step does (REST spells DIRECT_UPLOAD as direct-upload).",
  valuesConfig: described({
    API: "An API call with data.",
    DIRECT_UPLOAD: "Uploading documents to this service.",
    HOSTED: "A hosted page the person or company fills in.",
  }),
});

registerGraphQLEnum(namedEnumOf(DOCUMENT_COLLECTIONS, kebabName), {
  name: "DocumentCollection",
  description: "How a document is collected (REST spells DIRECT_UPLOAD as direct-upload).",
  valuesConfig: described({
    DIRECT_UPLOAD: "Uploaded to this service by the integrator.",
    HOSTED: "Collected by the provider's hosted pages.",
  }),
});

registerGraphQLEnum(enumOf(["POST", "PUT"] as const), {
  name: "OnboardingStepMethod",
  description: "The HTTP method of a step's REST operation (steps never read).",
  valuesConfig: described({ POST: "POST.", PUT: "PUT." }),
});

export const OnboardingStatus = outputType(onboardingStatusView);

export const BrazilKycAttempt = outputType(initialKycAttemptView);

export const RecordBrazilKycAttemptInput = inputType("RecordBrazilKycAttemptInput", initialKycAttemptInput, {
  description:
    "The quote (and widget session) Brazilian KYC starts from, and the CPF or CNPJ given: only checked for form, never kept.",
});
