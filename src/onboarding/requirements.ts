import { z } from "zod";
import { named, outputObject } from "../output.js";
import { CUSTOMER_TYPES, type Corridor, type CustomerType } from "../reference-data/corridors.js";
import { DOCUMENT_MEDIA_TYPES, SELFIE_MEDIA_TYPES } from "../uploads/service.js";
import { describedEnum, hyphensAsUnderscores } from "../enums.js";

/*
 * The onboarding flows per corridor and customer type: the documents and the ordered, non-GET actions
 * (the reference's OnboardingRequirementsResponse). Argentina onboards individuals only.
 */

export const ONBOARDING_COUNTRIES = ["AR", "BR", "CO", "MX", "US"] as const;
export type OnboardingCountry = (typeof ONBOARDING_COUNTRIES)[number];

/** The documents the flows ask for. */
const ONBOARDING_DOCUMENT_TYPES = [
  "identity_document_front",
  "identity_document_back",
  "selfie",
  "incorporation_certificate",
  "proof_of_address",
  "ubo_identity_document",
] as const;

describedEnum("OnboardingDocumentType", ONBOARDING_DOCUMENT_TYPES, {
  description: "A document a KYC (KYB) flow asks for, as REST spells it in lowercase.",
  meanings: {
    identity_document_front: "The front of a government-issued identity document.",
    identity_document_back: "The back of the identity document.",
    selfie: "A photo of the person holding the document.",
    incorporation_certificate: "The certificate of incorporation or a registry extract.",
    proof_of_address: "The company's proof of address.",
    ubo_identity_document: "The identity document of an ultimate beneficial owner.",
  },
});

/** The partners that verify: Avenia Brazil's subjects, Alfredpay those of the other KYC corridors. */
export const KYC_PROVIDERS = ["alfredpay", "avenia"] as const;

describedEnum("KycProvider", KYC_PROVIDERS, {
  description: "A partner that holds customers and decides their KYC (KYB).",
  meanings: { alfredpay: "Alfredpay: Argentina, Colombia, Mexico and the United States.", avenia: "Avenia: Brazil." },
});

/** The partner whose KYC flow a corridor's case follows (its API is the flow's). */
export const kycProviderOf = (corridor: Corridor): (typeof KYC_PROVIDERS)[number] =>
  corridor === "BR" ? "avenia" : "alfredpay";

const DOCUMENT_COLLECTIONS = ["direct-upload", "hosted"] as const;

describedEnum("DocumentCollection", DOCUMENT_COLLECTIONS, {
  description: "How a document is collected (REST spells DIRECT_UPLOAD as direct-upload).",
  graphqlName: hyphensAsUnderscores,
  meanings: {
    "direct-upload": "Uploaded to this service by the integrator.",
    hosted: "Collected by the provider's hosted pages.",
  },
});

const STEP_KINDS = ["api", "direct-upload", "hosted"] as const;

describedEnum("OnboardingStepKind", STEP_KINDS, {
  description: "What a step does (REST spells DIRECT_UPLOAD as direct-upload).",
  graphqlName: hyphensAsUnderscores,
  meanings: {
    api: "An API call with data.",
    "direct-upload": "Uploading documents to this service.",
    hosted: "A hosted page the person or company fills in.",
  },
});

const STEP_METHODS = ["POST", "PUT"] as const;

describedEnum("OnboardingStepMethod", STEP_METHODS, {
  description: "The HTTP method of a step's REST operation (steps never read).",
  meanings: { POST: "POST.", PUT: "PUT." },
});

const ONBOARDING_MODES = ["api", "hosted", "hybrid"] as const;

describedEnum("OnboardingMode", ONBOARDING_MODES, {
  description: "How a flow collects what it needs.",
  meanings: {
    api: "Every step is an API call of the integrator's.",
    hosted: "The provider's hosted pages collect everything.",
    hybrid: "Some steps are API calls, others hosted pages.",
  },
});

const documentView = outputObject("OnboardingDocument", "A document a flow asks for.", {
  type: named("OnboardingDocumentType", z.enum(ONBOARDING_DOCUMENT_TYPES)).describe("What the document is."),
  required: z.boolean().describe("False when the flow may go on without it."),
  collection: named("DocumentCollection", z.enum(DOCUMENT_COLLECTIONS)).describe("How it is collected."),
  acceptedMediaTypes: z
    .array(z.string())
    .describe("The media types accepted for it (image/jpeg, application/pdf, ...)."),
  description: z.string().describe("What the document must show."),
});
type Document = z.output<typeof documentView>;

const stepView = outputObject("OnboardingStep", "One step of a flow: a REST operation to call, in order.", {
  order: z.number().int().describe("The step's place in the flow, from 1."),
  kind: named("OnboardingStepKind", z.enum(STEP_KINDS)).describe("What the step does."),
  method: named("OnboardingStepMethod", z.enum(STEP_METHODS)).describe("The REST operation's method."),
  path: z.string().describe("The REST operation's path (/v1/...)."),
  operationId: z.string().describe("The REST operation's operationId in the OpenAPI document."),
  description: z.string().describe("What the step is for."),
  fixedQuery: named("JSONObject", z.record(z.string(), z.string()))
    .optional()
    .describe("Query parameters the call must carry as given (the country of a domestic step), when there are any."),
});
type Step = z.output<typeof stepView>;

// What the upload URLs take.
const IMAGES = DOCUMENT_MEDIA_TYPES;
const identityDocuments: Document[] = [
  {
    type: "identity_document_front",
    required: true,
    collection: "direct-upload",
    acceptedMediaTypes: IMAGES,
    description: "Front of a government-issued identity document.",
  },
  {
    type: "identity_document_back",
    required: true,
    collection: "direct-upload",
    acceptedMediaTypes: IMAGES,
    description: "Back of the identity document.",
  },
  {
    type: "selfie",
    required: true,
    collection: "direct-upload",
    acceptedMediaTypes: SELFIE_MEDIA_TYPES,
    description: "A photo of the person holding the document.",
  },
];
const businessDocuments: Document[] = [
  {
    type: "incorporation_certificate",
    required: true,
    collection: "direct-upload",
    acceptedMediaTypes: IMAGES,
    description: "Certificate of incorporation or equivalent registry extract.",
  },
  {
    type: "proof_of_address",
    required: true,
    collection: "direct-upload",
    acceptedMediaTypes: IMAGES,
    description: "Company proof of address, at most 3 months old.",
  },
  {
    type: "ubo_identity_document",
    required: true,
    collection: "direct-upload",
    acceptedMediaTypes: IMAGES,
    description: "Identity document of each ultimate beneficial owner.",
  },
];

const domestic = (country: OnboardingCountry, customerType: CustomerType): Step[] => {
  const kind = customerType === "individual" ? "Kyc" : "Kyb";
  const create = customerType === "individual" ? "createIndividualCustomer" : "createBusinessCustomer";
  const query = { country };
  return [
    {
      order: 1,
      kind: "api",
      method: "POST",
      path: `/v1/domestic/${create}`,
      operationId: `createDomestic${customerType === "individual" ? "Individual" : "Business"}Customer`,
      description: "Create the customer with the provider.",
      fixedQuery: query,
    },
    {
      order: 2,
      kind: "api",
      method: "POST",
      path: `/v1/domestic/submit${kind}Information`,
      operationId: `submitDomestic${kind}Information`,
      description: "Submit the customer's information.",
      fixedQuery: query,
    },
    {
      order: 3,
      kind: "direct-upload",
      method: "POST",
      path: `/v1/domestic/submit${kind}File`,
      operationId: `submitDomestic${kind}File`,
      description: "Upload each required document.",
      fixedQuery: query,
    },
    {
      order: 4,
      kind: "api",
      method: "POST",
      path: `/v1/domestic/send${kind}Submission`,
      operationId: `sendDomestic${kind}Submission`,
      description: "Send the submission for review.",
      fixedQuery: query,
    },
  ];
};

const brazil = (customerType: CustomerType): Step[] =>
  customerType === "individual"
    ? [
        {
          order: 1,
          kind: "api",
          method: "POST",
          path: "/v1/brl/createSubaccount",
          operationId: "createSubaccount",
          description: "Create the customer's account with the provider.",
        },
        {
          order: 2,
          kind: "direct-upload",
          method: "POST",
          path: "/v1/brl/getUploadUrls",
          operationId: "brGetUploadUrls",
          description: "Get upload URLs for the identity document and a selfie, and PUT each file to its URL.",
        },
        {
          order: 3,
          kind: "api",
          method: "POST",
          path: "/v1/brl/newKyc",
          operationId: "brNewKyc",
          description: "Submit level-1 KYC (or import a token with POST /v1/brl/kyc/import-token).",
        },
      ]
    : [
        {
          order: 1,
          kind: "api",
          method: "POST",
          path: "/v1/brl/createSubaccount",
          operationId: "createSubaccount",
          description: "Create the company's account with the provider.",
        },
        {
          order: 2,
          kind: "api",
          method: "POST",
          path: "/v1/brl/kyb/new-level-1/api",
          operationId: "submitBrKybLevel1Api",
          description: "Submit level-1 KYB.",
        },
        {
          order: 3,
          kind: "direct-upload",
          method: "POST",
          path: "/v1/brl/kyb/documents",
          operationId: "createBrKybDocument",
          description: "Upload each required company document.",
        },
        {
          order: 4,
          kind: "api",
          method: "POST",
          path: "/v1/brl/kyb/ubos",
          operationId: "createBrKybUbo",
          description: "Declare each ultimate beneficial owner.",
        },
      ];

export const onboardingRequirementsView = outputObject(
  "OnboardingRequirements",
  "What KYC (KYB) asks for in a corridor for a customer type: documents and ordered steps.",
  {
    country: named("Corridor", z.enum(ONBOARDING_COUNTRIES)).describe("The corridor asked about."),
    customerType: named("CustomerType", z.enum(CUSTOMER_TYPES)).describe("The customer type asked about."),
    provider: named("KycProvider", z.enum(KYC_PROVIDERS)).describe("The provider that verifies."),
    flow: z.string().describe("The flow's name (br-kyc, mx-kyb, ...)."),
    mode: named("OnboardingMode", z.enum(ONBOARDING_MODES)).describe("How the flow collects what it needs."),
    requirementsVersion: z.string().describe("The version of these requirements (a date)."),
    documentationUrl: z.string().describe("Where the flow is documented for people: the rendered API reference."),
    openapiUrl: z.string().describe("The OpenAPI document naming the steps' operations."),
    documents: z.array(documentView).describe("The documents the flow asks for."),
    steps: z.array(stepView).describe("The calls to make, in order (none of them reads)."),
  },
);
export type OnboardingRequirements = z.output<typeof onboardingRequirementsView>;

/** The flow for a country and customer type; undefined where none is offered. */
export function onboardingRequirements(
  country: OnboardingCountry,
  customerType: CustomerType,
  publicBaseUrl: string,
): OnboardingRequirements | undefined {
  if (country === "AR" && customerType === "business") return undefined;
  return {
    country,
    customerType,
    provider: kycProviderOf(country),
    flow: `${country.toLowerCase()}-${customerType === "individual" ? "kyc" : "kyb"}`,
    mode: "api",
    requirementsVersion: "2026-11-25",
    documentationUrl: new URL("/docs", publicBaseUrl).toString(),
    openapiUrl: new URL("/v1/openapi.json", publicBaseUrl).toString(),
    documents: customerType === "individual" ? identityDocuments : businessDocuments,
    steps: country === "BR" ? brazil(customerType) : domestic(country, customerType),
  };
}
