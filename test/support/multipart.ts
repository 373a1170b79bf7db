import { randomUUID } from "node:crypto";

/** A file part of a form: its bytes and the Content-Type its part declares. */
interface FormFilePart {
  bytes: Buffer;
  contentType: string;
  filename?: string;
}

/** A form's fields: text, or a file; undefined ones are left out. */
export type FormFields = Record<string, string | FormFilePart | undefined>;

/** A multipart/form-data body of the fields, in their order, and the Content-Type header that names its boundary. */
export function multipartForm(fields: FormFields): { contentType: string; body: Buffer } {
  const boundary = `form-${randomUUID()}`;
  const parts = Object.entries(fields).flatMap(([name, value]) => {
    if (value === undefined) return [];
    const head =
      typeof value === "string"
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename ?? "file"}"\r\n` +
          `Content-Type: ${value.contentType}\r\n\r\n`;
    return [Buffer.from(head), typeof value === "string" ? Buffer.from(value) : value.bytes, Buffer.from("\r\n")];
  });
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
  };
}
