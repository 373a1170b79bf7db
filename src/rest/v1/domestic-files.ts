import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { KYB_COUNTRIES } from "../../kyc/domestic-enums.js";
import { KYC_FILE_COUNTRIES, kybFileInput, kycFileInput, relatedPersonFileInput } from "../../kyc/domestic-files.js";
import { ALIASED_CUSTOMER_OPERATIONS, DOMESTIC_CUSTOMER_OPERATIONS } from "../../operations/customers.js";
import type { DomesticCountry } from "../../reference-data/domestic.js";
import { DOCUMENT_MEDIA_TYPES, MAX_UPLOAD_BYTES, SELFIE_MEDIA_TYPES } from "../../uploads/service.js";
import { fieldError } from "../../validation.js";
import { jsonSchema, withRequestCountry } from "../http.js";
import { acceptForms } from "../multipart.js";
import { operationRoute } from "../operation-route.js";

/** The text fields a file's form names (country, an id and the file type), with room for ones to refuse by name. */
const FORM_FIELDS = 8;

/**
 * The form of a file operation as the document shows it: its text fields, the country optional where the path
 * may name it, and the file as binary.
 */
function documentedForm(input: z.ZodObject) {
  const { file: _file, country, ...fields } = input.shape;
  const text = jsonSchema(z.object({ ...fields, country: (country as z.ZodType).optional() }), "input");
  const { properties, required } = text as { properties: object; required: string[] };
  return {
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: {
            ...properties,
            file: {
              type: "string",
              format: "binary",
              description:
                `The file, its part's Content-Type one of ${DOCUMENT_MEDIA_TYPES.join(", ")} (a selfie's: ` +
                `${SELFIE_MEDIA_TYPES.join(", ")}), at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`,
            },
          },
          required: [...required, "file"],
        },
      },
    },
  };
}

/**
 * The reference's multipart file uploads of API KYC/KYB submissions (`/v1/domestic/*`, also under the country
 * aliases): the form becomes the operation's input (its fields and the file's bytes and declared type), the
 * country from the path, the query or the form, as for the other domestic changes.
 */
export function domesticFileRoutes(server: FastifyInstance, app: App) {
  const tags = ["Customers and KYC (AR, CO, MX, US)"];
  const { ar, co, mx } = ALIASED_CUSTOMER_OPERATIONS;
  const domestic = DOMESTIC_CUSTOMER_OPERATIONS;
  const face = (url: string, input: z.ZodObject, countries: readonly DomesticCountry[]) => {
    const country = withRequestCountry(url, "body", countries);
    return {
      method: "POST" as const,
      url,
      tags,
      response: jsonSchema(z.object({ success: z.literal(true) })),
      errors: [400, 401, 403, 404, 413],
      input: (request: FastifyRequest) => {
        if (!request.isMultipart()) throw fieldError("Content-Type", "must be multipart/form-data");
        return country(request);
      },
      documented: {
        querystring: jsonSchema(z.object({ country: z.enum(countries).optional() }), "input"),
        body: documentedForm(input),
      },
    };
  };

  return server.register(async (scope) => {
    await acceptForms(scope, { fileBytes: MAX_UPLOAD_BYTES, fields: FORM_FIELDS });
    for (const [operations, url] of [
      [domestic, "/v1/domestic/submitKycFile"],
      [ar, "/v1/ar/submitKycFile"],
      [co, "/v1/co/submitKycFile"],
      [mx, "/v1/mx/submitKycFile"],
    ] as const) {
      operationRoute(scope, app, operations.submitKycFile, face(url, kycFileInput, KYC_FILE_COUNTRIES));
    }
    // KYB is served in CO and MX only: another country is refused where the request names it.
    for (const [operations, url] of [
      [domestic, "/v1/domestic/submitKybFile"],
      [ar, "/v1/ar/submitKybFile"],
      [co, "/v1/co/submitKybFile"],
      [mx, "/v1/mx/submitKybFile"],
    ] as const) {
      operationRoute(scope, app, operations.submitKybFile, face(url, kybFileInput, KYB_COUNTRIES));
    }
    for (const [operations, url] of [
      [domestic, "/v1/domestic/submitKybRelatedPersonFile"],
      [ar, "/v1/ar/submitKybRelatedPersonFile"],
      [co, "/v1/co/submitKybRelatedPersonFile"],
      [mx, "/v1/mx/submitKybRelatedPersonFile"],
    ] as const) {
      const route = face(url, relatedPersonFileInput, KYB_COUNTRIES);
      operationRoute(scope, app, operations.submitKybRelatedPersonFile, route);
    }
  });
}
