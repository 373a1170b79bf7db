import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import {
  DOMESTIC_STATUSES,
  KYB_COUNTRIES,
  customerTypeInput,
  kybInformation,
  kycInformation,
  sendSubmissionInput,
  type DomesticCaseView,
  type KybSubmissionView,
} from "../../kyc/domestic.js";
import { ALIASED_CUSTOMER_OPERATIONS, DOMESTIC_CUSTOMER_OPERATIONS } from "../../operations/customers.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../../reference-data/domestic.js";
import { isoDateTime, jsonSchema, withRequestCountry } from "../http.js";
import { operationRoute } from "../operation-route.js";

const success = z.object({ success: z.boolean() });
const link = z.object({ submissionId: z.uuid(), verification_url: z.url() });
const domesticStatus = z.enum(DOMESTIC_STATUSES);
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

const linkReply = ({ submissionId, url }: { submissionId: string; url: string }) => ({
  submissionId,
  verification_url: url,
});
const succeeded = () => ({ success: true });

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
  const change = <Result>(
    url: string,
    body: z.ZodObject,
    response: z.ZodType,
    reply: (result: Result) => unknown,
    options: { errors?: number[]; countries?: readonly DomesticCountry[]; wireNames?: Record<string, string> } = {},
  ) => ({
    method: "POST" as const,
    url,
    tags,
    response: jsonSchema(response),
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
    reply,
  });
  /** A read: its query. */
  const read = <Result>(url: string, query: z.ZodObject, response: z.ZodType, reply: (result: Result) => unknown) => ({
    method: "GET" as const,
    url,
    tags,
    response: jsonSchema(response),
    errors: [400, 401, 403, 404],
    input: withRequestCountry(url, "query"),
    documented: { querystring: jsonSchema(query, "input") },
    reply,
  });

  const createdResponse = z.object({ createdAt: isoDateTime });
  const created = ({ createdAt }: DomesticCaseView) => ({ createdAt });
  const customerBody = z.object({}).strict();
  for (const [operations, url] of [
    [domestic, "/v1/domestic/createIndividualCustomer"],
    [ar, "/v1/ar/createIndividualCustomer"],
    [co, "/v1/co/createIndividualCustomer"],
    [mx, "/v1/mx/createIndividualCustomer"],
  ] as const) {
    const face = change(url, customerBody, createdResponse, created, { errors: [400, 401, 403] });
    operationRoute(server, app, operations.createIndividualCustomer, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/createBusinessCustomer"],
    [ar, "/v1/ar/createBusinessCustomer"],
    [co, "/v1/co/createBusinessCustomer"],
    [mx, "/v1/mx/createBusinessCustomer"],
  ] as const) {
    const face = change(url, customerBody, createdResponse, created, { errors: [400, 401, 403] });
    operationRoute(server, app, operations.createBusinessCustomer, face);
  }

  const submitted = z.object({ submissionId: z.uuid() });
  const asItIs = <Result>(result: Result) => result;
  for (const [operations, url] of [
    [domestic, "/v1/domestic/submitKycInformation"],
    [ar, "/v1/ar/submitKycInformation"],
    [co, "/v1/co/submitKycInformation"],
    [mx, "/v1/mx/submitKycInformation"],
  ] as const) {
    const face = change(url, kycInformation, submitted, asItIs, { wireNames: KYC_WIRE_NAMES });
    operationRoute(server, app, operations.submitKycInformation, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/sendKycSubmission"],
    [ar, "/v1/ar/sendKycSubmission"],
    [co, "/v1/co/sendKycSubmission"],
    [mx, "/v1/mx/sendKycSubmission"],
  ] as const) {
    operationRoute(server, app, operations.sendKycSubmission, change(url, sendSubmissionInput, success, succeeded));
  }
  // KYB is served in CO and MX only: another country is refused where the request names it.
  const kyb = { countries: ["CO", "MX"] as const };
  for (const [operations, url] of [
    [domestic, "/v1/domestic/submitKybInformation"],
    [ar, "/v1/ar/submitKybInformation"],
    [co, "/v1/co/submitKybInformation"],
    [mx, "/v1/mx/submitKybInformation"],
  ] as const) {
    const face = change(url, kybInformation, submitted, asItIs, kyb);
    operationRoute(server, app, operations.submitKybInformation, face);
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/sendKybSubmission"],
    [ar, "/v1/ar/sendKybSubmission"],
    [co, "/v1/co/sendKybSubmission"],
    [mx, "/v1/mx/sendKybSubmission"],
  ] as const) {
    operationRoute(server, app, operations.sendKybSubmission, change(url, sendSubmissionInput, success, succeeded));
  }

  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKycRedirectLink"],
    [ar, "/v1/ar/getKycRedirectLink"],
    [co, "/v1/co/getKycRedirectLink"],
    [mx, "/v1/mx/getKycRedirectLink"],
  ] as const) {
    operationRoute(server, app, operations.kycRedirectLink, read(url, countryQuery, link, linkReply));
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKybRedirectLink"],
    [ar, "/v1/ar/getKybRedirectLink"],
    [co, "/v1/co/getKybRedirectLink"],
    [mx, "/v1/mx/getKybRedirectLink"],
  ] as const) {
    operationRoute(server, app, operations.kybRedirectLink, read(url, countryQuery, link, linkReply));
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/kycRedirectOpened"],
    [ar, "/v1/ar/kycRedirectOpened"],
    [co, "/v1/co/kycRedirectOpened"],
    [mx, "/v1/mx/kycRedirectOpened"],
  ] as const) {
    operationRoute(server, app, operations.redirectOpened, change(url, customerTypeInput, success, succeeded));
  }
  for (const [operations, url] of [
    [domestic, "/v1/domestic/kycRedirectFinished"],
    [ar, "/v1/ar/kycRedirectFinished"],
    [co, "/v1/co/kycRedirectFinished"],
    [mx, "/v1/mx/kycRedirectFinished"],
  ] as const) {
    operationRoute(server, app, operations.redirectFinished, change(url, customerTypeInput, success, succeeded));
  }
  // A redirect flow retried gets a new link; one through the API is open for a new submission.
  const retried = (result: { submissionId: string; url: string } | { success: true }) =>
    "url" in result ? linkReply(result) : result;
  for (const [operations, url] of [
    [domestic, "/v1/domestic/retryKyc"],
    [ar, "/v1/ar/retryKyc"],
    [co, "/v1/co/retryKyc"],
    [mx, "/v1/mx/retryKyc"],
  ] as const) {
    operationRoute(server, app, operations.retry, change(url, customerTypeInput, z.union([link, success]), retried));
  }

  const kycStatus = z.object({
    alfred_pay_id: z.uuid(),
    country: z.enum(DOMESTIC_COUNTRIES),
    status: domesticStatus,
    updated_at: isoDateTime,
    lastFailure: z.string().optional(),
  });
  const kycStatusReply = ({ providerCustomerId, country, status, updatedAt }: DomesticCaseView) => ({
    alfred_pay_id: providerCustomerId,
    country,
    status,
    updated_at: updatedAt,
    // Why a case failed stays with support; callers learn only that it did.
    ...(status === "FAILED" && { lastFailure: "The verification was not approved." }),
  });
  for (const [operations, url] of [
    [domestic, "/v1/domestic/getKycStatus"],
    [ar, "/v1/ar/getKycStatus"],
    [co, "/v1/co/getKycStatus"],
    [mx, "/v1/mx/getKycStatus"],
  ] as const) {
    operationRoute(server, app, operations.kycStatus, read(url, typedQuery, kycStatus, kycStatusReply));
  }
  const customerStatus = z.object({
    country: z.enum(DOMESTIC_COUNTRIES),
    creationTime: isoDateTime,
    status: domesticStatus,
  });
  const customerStatusReply = ({ country, createdAt, status }: DomesticCaseView) => ({
    country,
    creationTime: createdAt,
    status,
  });
  for (const [operations, url] of [
    [domestic, "/v1/domestic/alfredpayStatus"],
    [ar, "/v1/ar/alfredpayStatus"],
    [co, "/v1/co/alfredpayStatus"],
    [mx, "/v1/mx/alfredpayStatus"],
  ] as const) {
    operationRoute(server, app, operations.customerStatus, read(url, typedQuery, customerStatus, customerStatusReply));
  }
  const kybDetails = z.array(
    z.object({ submissionId: z.uuid(), relatedPersons: z.array(z.object({ idRelatedPerson: z.uuid() })) }),
  );
  const kybDetailsReply = (submissions: KybSubmissionView[]) =>
    submissions.map(({ submissionId, relatedPersonIds }) => ({
      submissionId,
      relatedPersons: relatedPersonIds.map((idRelatedPerson) => ({ idRelatedPerson })),
    }));
  for (const [operations, url] of [
    [domestic, "/v1/domestic/findKybCustomerAndBusiness"],
    [ar, "/v1/ar/findKybCustomerAndBusiness"],
    [co, "/v1/co/findKybCustomerAndBusiness"],
    [mx, "/v1/mx/findKybCustomerAndBusiness"],
  ] as const) {
    // KYB is served in CO and MX only, as for its information: another country is refused where it is named.
    operationRoute(server, app, operations.kybSubmissions, {
      ...read(url, countryQuery, kybDetails, kybDetailsReply),
      input: withRequestCountry(url, "query", KYB_COUNTRIES),
    });
  }
}
