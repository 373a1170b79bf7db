import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { KYB_COUNTRIES } from "../../kyc/domestic-enums.js";
import {
  customerTypeInput,
  domesticCaseView,
  hostedLinkView,
  kybSubmissionView,
  kybInformation,
  kycInformation,
  sendSubmissionInput,
  type DomesticCaseView,
  type KybSubmissionView,
  type RetriedCaseView,
} from "../../kyc/domestic.js";
import { ALIASED_CUSTOMER_OPERATIONS, DOMESTIC_CUSTOMER_OPERATIONS } from "../../operations/customers.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../../reference-data/domestic.js";
import { jsonSchema, withRequestCountry } from "../http.js";
import { operationRoute } from "../operation-route.js";
import { toWire, wireSchema, type WireForm } from "../wire-form.js";

/** What the reference answers to a change that has nothing to tell but that it was made. */
const SUCCEEDED = { response: jsonSchema(z.object({ success: z.boolean() })), reply: () => ({ success: true }) };
/** A hosted flow's link under the reference's name for its URL. */
const LINK: WireForm = { names: { url: "verification_url" } };
/** A customer's KYC status and its creation as the reference's status routes tell them. */
const KYC_STATUS: WireForm = {
  only: ["customerId", "country", "status", "updatedAt"],
  names: { customerId: "alfred_pay_id", updatedAt: "updated_at" },
};
const CUSTOMER_STATUS: WireForm = { only: ["country", "status", "createdAt"], names: { createdAt: "creationTime" } };
/** Where a domestic request may name its country besides the alias path. */
const countryField = { country: z.enum(DOMESTIC_COUNTRIES).optional() };
const countryQuery = z.object(countryField);
const typedQuery = countryQuery.extend({ type: z.enum(["INDIVIDUAL", "BUSINESS"]).optional() });

/** The reference's names for KYC fields that are the same facts as the operation's, under other names. */
const KYC_WIRE_NAMES = {
  documentType: "typeDocument",
  documentNumber: "dni",
  colombianDocumentType: "typeDocumentCol",
  argentineDocumentType: "typeDocumentAr",
  phone: "phoneNumber",
  politicallyExposed: "pep",
} satisfies Partial<Record<keyof typeof kycInformation.shape, string>>;

/** A strict body with its fields under the wire's names, in the same order: what the document shows. */
const wireNamedBody = (body: z.ZodObject, names: Record<string, string>) =>
  z.strictObject(
    Object.fromEntries(Object.entries(body.shape).map(([field, schema]) => [names[field] ?? field, schema])),
  );

/** The reference also says that a failed status failed (why stays with support). */
const kycStatus = wireSchema(domesticCaseView, KYC_STATUS).extend({ lastFailure: z.string().optional() });
const kycStatusReply = (customer: DomesticCaseView) => ({
  ...(toWire(customer, KYC_STATUS) as object),
  ...(customer.status === "FAILED" && { lastFailure: "The verification was not approved." }),
});

/** The reference lists a KYB submission's related persons as objects, and not its files. */
const kybDetails = z.array(
  z.object({
    submissionId: kybSubmissionView.shape.submissionId,
    relatedPersons: z.array(z.object({ idRelatedPerson: z.uuid() })),
  }),
);
const kybDetailsReply = (submissions: KybSubmissionView[]) =>
  submissions.map(({ submissionId, relatedPersonIds }) => ({
    submissionId,
    relatedPersons: relatedPersonIds.map((idRelatedPerson) => ({ idRelatedPerson })),
  }));

/** A redirect flow retried gets a new link; one through the API is open for a new submission. */
const retried = {
  response: jsonSchema(z.union([wireSchema(hostedLinkView, LINK), z.object({ success: z.boolean() })])),
  reply: ({ hostedLink }: RetriedCaseView) => (hostedLink ? toWire(hostedLink, LINK) : { success: true }),
};

/**
 * Customers and KYC/KYB of the subject (CONTRACT.md, KYC/KYB and fiat accounts) in the domestic corridors: the
 * reference's `/v1/domestic/*` operations (also under `/v1/ar`, `/v1/co`, `/v1/mx`, where the path names the
 * country; BR's are in brazil-customers.ts). The adapter decides a domestic request's country; the operations
 * check the corridor and the customer type.
 */
export function customerRoutes(server: FastifyInstance, app: App) {
  const tags = ["Customers and KYC (AR, CO, MX, US)"];
  const { ar, co, mx } = ALIASED_CUSTOMER_OPERATIONS;
  const domestic = DOMESTIC_CUSTOMER_OPERATIONS;

  /** A change: its body (the country may come from the path or the query instead). */
  const change = (
    url: string,
    body: z.ZodObject,
    options: { errors?: number[]; countries?: readonly DomesticCountry[]; wireNames?: Record<string, string> } = {},
  ) => ({
    method: "POST" as const,
    url,
    tags,
    errors: options.errors ?? [400, 401, 403, 404],
    input: withRequestCountry(url, "body", options.countries),
    wireNames: options.wireNames,
    documented: {
      querystring: jsonSchema(countryQuery, "input"),
      body: jsonSchema(
        // safeExtend: a form's cross-field rules (KYB's questionnaire) stay with it.
        (options.wireNames ? wireNamedBody(body, options.wireNames) : body).safeExtend(countryField),
        "input",
      ),
    },
  });
  /** A read: its query. */
  const read = (url: string, query: z.ZodObject) => ({
    method: "GET" as const,
    url,
    tags,
    errors: [400, 401, 403, 404],
    input: withRequestCountry(url, "query"),
    documented: { querystring: jsonSchema(query, "input") },
  });

  /** The reference answers a new customer's creation time only. */
  const created: WireForm = { only: ["createdAt"] };
  const customerBody = z.object({}).strict();
  for (const [operations, url] of [
    [domestic, "/v1/domestic/createIndividualCustomer"],
    [ar, "/v1/ar/createIndividualCustomer"],
    [co, "/v1/co/createIndividualCustomer"],
    [mx, "/v1/mx/createIndividualCustomer"],
  ] as const) {
    const face = { ...change(url, customerBody, { errors: [400, 401, 403] }), wire: created };
    operationRoute(server, app, operations.createIndividualCustomer, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/createBusinessCustomer"],
    [ar, "/v1/ar/createBusinessCustomer"],
    [co, "/v1/co/createBusinessCustomer"],
    [mx, "/v1/mx/createBusinessCustomer"],
  ] as const) {
    const face = { ...change(url, customerBody, { errors: [400, 401, 403] }), wire: created };
    operationRoute(server, app, operations.createBusinessCustomer, face);
  }

  for (const [operations, url] of [
    [domestic, "/v1/domestic/submitKycInformation"],
    [ar, "/v1/ar/submitKycInformation"],
    [co, "/v1/co/submitKycInformation"],
    [mx, "/v1/mx/submitKycInformation"],
  ] as const) {
    const face = change(url, kycInformation, { wireNames: KYC_WIRE_NAMES });
    operationRoute(server, app, operations.submitKycInformation, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/sendKycSubmission"],
    [ar, "/v1/ar/sendKycSubmission"],
    [co, "/v1/co/sendKycSubmission"],
    [mx, "/v1/mx/sendKycSubmission"],
  ] as const) {
    operationRoute(server, app, operations.sendKycSubmission, { ...change(url, sendSubmissionInput), ...SUCCEEDED });
  }
  // KYB is served in CO and MX only: another country is refused where the request names it.
  const kyb = { countries: ["CO", "MX"] as const };
  for (const [operations, url] of [
    [domestic, "/v1/domestic/submitKybInformation"],
    [ar, "/v1/ar/submitKybInformation"],
    [co, "/v1/co/submitKybInformation"],
    [mx, "/v1/mx/submitKybInformation"],
  ] as const) {
    const face = change(url, kybInformation, kyb);
    operationRoute(server, app, operations.submitKybInformation, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/sendKybSubmission"],
    [ar, "/v1/ar/sendKybSubmission"],
    [co, "/v1/co/sendKybSubmission"],
    [mx, "/v1/mx/sendKybSubmission"],
  ] as const) {
    operationRoute(server, app, operations.sendKybSubmission, { ...change(url, sendSubmissionInput), ...SUCCEEDED });
  }

  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKycRedirectLink"],
    [ar, "/v1/ar/getKycRedirectLink"],
    [co, "/v1/co/getKycRedirectLink"],
    [mx, "/v1/mx/getKycRedirectLink"],
  ] as const) {
    operationRoute(server, app, operations.kycRedirectLink, { ...read(url, countryQuery), wire: LINK });
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKybRedirectLink"],
    [ar, "/v1/ar/getKybRedirectLink"],
    [co, "/v1/co/getKybRedirectLink"],
    [mx, "/v1/mx/getKybRedirectLink"],
  ] as const) {
    operationRoute(server, app, operations.kybRedirectLink, { ...read(url, countryQuery), wire: LINK });
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/kycRedirectOpened"],
    [ar, "/v1/ar/kycRedirectOpened"],
    [co, "/v1/co/kycRedirectOpened"],
    [mx, "/v1/mx/kycRedirectOpened"],
  ] as const) {
    operationRoute(server, app, operations.redirectOpened, { ...change(url, customerTypeInput), ...SUCCEEDED });
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/kycRedirectFinished"],
    [ar, "/v1/ar/kycRedirectFinished"],
    [co, "/v1/co/kycRedirectFinished"],
    [mx, "/v1/mx/kycRedirectFinished"],
  ] as const) {
    operationRoute(server, app, operations.redirectFinished, { ...change(url, customerTypeInput), ...SUCCEEDED });
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/retryKyc"],
    [ar, "/v1/ar/retryKyc"],
    [co, "/v1/co/retryKyc"],
    [mx, "/v1/mx/retryKyc"],
  ] as const) {
    operationRoute(server, app, operations.retry, { ...change(url, customerTypeInput), ...retried });
  }

  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKycStatus"],
    [ar, "/v1/ar/getKycStatus"],
    [co, "/v1/co/getKycStatus"],
    [mx, "/v1/mx/getKycStatus"],
  ] as const) {
    operationRoute(server, app, operations.kycStatus, {
      ...read(url, typedQuery),
      response: jsonSchema(kycStatus),
      reply: kycStatusReply,
    });
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/alfredpayStatus"],
    [ar, "/v1/ar/alfredpayStatus"],
    [co, "/v1/co/alfredpayStatus"],
    [mx, "/v1/mx/alfredpayStatus"],
  ] as const) {
    operationRoute(server, app, operations.customerStatus, { ...read(url, typedQuery), wire: CUSTOMER_STATUS });
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/findKybCustomerAndBusiness"],
    [ar, "/v1/ar/findKybCustomerAndBusiness"],
    [co, "/v1/co/findKybCustomerAndBusiness"],
    [mx, "/v1/mx/findKybCustomerAndBusiness"],
  ] as const) {
    // KYB is served in CO and MX only, as for its information: another country is refused where it is named.
    operationRoute(server, app, operations.kybSubmissions, {
      ...read(url, countryQuery),
      response: jsonSchema(kybDetails),
      reply: kybDetailsReply,
      input: withRequestCountry(url, "query", KYB_COUNTRIES),
    });
  }
}
