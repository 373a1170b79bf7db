import type { IncomingHttpHeaders } from "node:http";

/** A partner API call as the handlers see it. */
export interface PartnerRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The parsed JSON body; undefined when there is none or it is a form. */
  body: unknown;
  /** The parsed multipart body (a file upload); undefined for any other. */
  form?: FormData;
}

export interface Reply {
  status: number;
  body?: unknown;
}

/** Thrown by a handler to answer an error in the partner's own error shape. */
export class PartnerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Alfredpay's numeric code; Avenia has none. */
    readonly code?: number,
    /** Alfredpay's `errorMetadata`: what the refusal is about. */
    readonly metadata?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Route {
  method: string;
  /** e.g. `/v2/account/tickets/{id}`; also the key of the call counts. */
  template: string;
  /** Open routes (the public key, pre-signed uploads) take no auth and no faults. */
  open?: boolean;
  handle(request: PartnerRequest): Reply;
}

export interface Partner {
  /** Paths under it are this partner's: an unknown one is refused in its error shape. */
  pathPrefix: string;
  routes: Route[];
  isAuthenticated(request: PartnerRequest): boolean;
  errorBody(error: PartnerError): unknown;
}

export const ok = (body?: unknown): Reply => ({ status: 200, body });

/** The body as an object of the handler's expectation, or 400. */
export function objectBody(request: PartnerRequest): Record<string, unknown> {
  const { body } = request;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new PartnerError(400, "body must be a JSON object");
  return body as Record<string, unknown>;
}

export function requiredString(object: Record<string, unknown>, field: string): string {
  const value = object[field];
  if (typeof value !== "string" || value === "") throw new PartnerError(400, `${field} is required`, 110002);
  return value;
}

export function optionalString(object: Record<string, unknown>, field: string): string | undefined {
  const value = object[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new PartnerError(400, `${field} must be a string`, 110002);
  return value;
}
