import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import { fieldError } from "../validation.js";

/** A form's file as a route reads it: the bytes, whole, and the media type its part declared. */
interface FormFile {
  contentType: string;
  bytes: Buffer;
}

/** What a form may hold: one file within `fileBytes`, and a few short text fields. */
export interface FormLimits {
  fileBytes: number;
  /** How many text fields a form may have. */
  fields: number;
}

/** The longest text field value a form takes, in bytes (ids, countries, file types). */
const FIELD_BYTES = 256;

/**
 * Takes multipart/form-data bodies on the routes of `scope` (and nowhere else). The form is read after
 * authentication (preParsing) and before the handler: `request.body` becomes a plain object, each text field a
 * string and the file a FormFile, so the operation validates it as it would a JSON body. What the parser
 * refuses is answered from the error table: a file over the limit 413 PAYLOAD_TOO_LARGE, anything else 400
 * VALIDATION_FAILED naming the field, or the body.
 */
export async function acceptForms(scope: FastifyInstance, limits: FormLimits): Promise<void> {
  await scope.register(multipart, {
    limits: {
      fileSize: limits.fileBytes,
      files: 1,
      fields: limits.fields,
      parts: limits.fields + 1,
      fieldSize: FIELD_BYTES,
      fieldNameSize: 64,
      headerPairs: 16,
    },
  });
  scope.addHook("preValidation", async (request) => {
    if (request.isMultipart()) request.body = await readForm(request, limits);
  });
}

async function readForm(request: FastifyRequest, limits: FormLimits): Promise<Record<string, unknown>> {
  const form: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (Object.hasOwn(form, part.fieldname)) throw fieldError(part.fieldname, "is sent more than once");
      if (part.type === "file") {
        form[part.fieldname] = { contentType: part.mimetype, bytes: await part.toBuffer() } satisfies FormFile;
      } else if (part.valueTruncated) {
        throw fieldError(part.fieldname, `must be at most ${FIELD_BYTES} bytes`);
      } else {
        form[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw formError(error, limits);
  }
  return form;
}

/** A refusal of the form in the contract's table; the parser's own errors name no field the caller sent. */
function formError(error: unknown, limits: FormLimits): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: unknown }).code) {
    case "FST_REQ_FILE_TOO_LARGE": {
      const message = `must be at most ${limits.fileBytes / 1024 / 1024} MB`;
      return new AppError("PAYLOAD_TOO_LARGE", `The file ${message}.`, [{ field: "file", message }]);
    }
    case "FST_FILES_LIMIT":
      return fieldError("file", "must be the only file: send one per request");
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return fieldError("(body)", `must have at most ${limits.fields} fields besides the file`);
  }
  // Anything else the parser met (a malformed or truncated body, a field named like a prototype property).
  return fieldError("(body)", "is not a well-formed multipart/form-data body");
}
