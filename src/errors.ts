/**
 * The one table of error codes (CONTRACT.md). REST statuses and GraphQL `extensions.code`/`status` both
 * come from here, so a code cannot exist without its status and default message.
 */
export const ERROR_TABLE = {
  VALIDATION_FAILED: { status: 400, message: "The request failed validation." },
  AUTHENTICATION_REQUIRED: { status: 401, message: "Authentication is required." },
  CREDENTIAL_REQUIRED: { status: 401, message: "A public or secret API key is required." },
  INVALID_PUBLIC_KEY: { status: 401, message: "The public key is malformed, unknown, expired or revoked." },
  INVALID_SECRET_KEY: { status: 401, message: "X-API-Key is not a well-formed secret key." },
  INVALID_API_KEY: { status: 401, message: "The secret key is unknown, expired or revoked." },
  INVALID_BEARER_TOKEN: { status: 401, message: "The bearer token is invalid or expired." },
  INVALID_OTP: { status: 400, message: "The code is wrong or expired." },
  OTP_ATTEMPTS_EXCEEDED: { status: 429, message: "Too many wrong codes; request a new one." },
  CREDENTIAL_MISMATCH: { status: 403, message: "The presented keys do not belong to one credential." },
  FORBIDDEN: { status: 403, message: "This credential may not perform this operation." },
  MANAGED_PROFILE_ACCESS_DENIED: { status: 403, message: "Access to this managed profile is denied." },
  MANAGED_PROFILE_UNSUPPORTED: { status: 400, message: "X-Managed-Profile-Id is not supported here." },
  INVALID_MANAGED_PROFILE_ID: { status: 400, message: "X-Managed-Profile-Id must be a UUID." },
  MANAGED_PROFILE_CUSTOMER_TYPE_MISMATCH: {
    status: 400,
    message: "The managed profile's customer type does not match.",
  },
  MANAGED_PROFILE_NOT_FOUND: { status: 404, message: "Managed profile not found." },
  MANAGED_PROFILE_CONFLICT: { status: 409, message: "The external subject or contact email is already reserved." },
  CREDENTIAL_NOT_FOUND: { status: 404, message: "Credential not found." },
  CREDENTIAL_LIMIT_REACHED: { status: 409, message: "The profile already has 5 active credentials." },
  CREDENTIAL_SUBJECT_REQUIRED: { status: 404, message: "A valid profile subject is required." },
  INVALID_CREDENTIAL_EXPIRY: { status: 400, message: "Expiry must be in the future and at most 2 years away." },
  INVALID_CREDENTIAL_NAME: { status: 400, message: "Name must be at most 100 characters." },
  NOT_FOUND: { status: 404, message: "Not found." },
  QUOTE_EXPIRED: { status: 400, message: "The quote has expired." },
  QUOTE_CONSUMED: { status: 409, message: "The quote has already been used." },
  RAMP_NOT_STARTABLE: { status: 409, message: "The ramp has left its initial phase." },
  RAMP_START_WINDOW_ELAPSED: { status: 400, message: "The ramp's start window has elapsed." },
  KYC_NOT_APPROVED: { status: 403, message: "KYC is not approved for this corridor." },
  INVALID_WEBHOOK_URL: { status: 400, message: "The webhook URL is not allowed." },
  INVALID_UPLOAD_URL: { status: 403, message: "The upload URL is invalid or has expired: ask for a new one." },
  UPLOAD_URL_USED: { status: 409, message: "The upload URL was used already: each one takes one file." },
  ACTIVE_ENTITY_CHOSEN: { status: 409, message: "The profile chose its active entity already: the choice is final." },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, message: "A valid Idempotency-Key header is required." },
  IDEMPOTENCY_KEY_MISMATCH: { status: 422, message: "The Idempotency-Key was used with a different body." },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: "A request with this Idempotency-Key is still running." },
  PROVIDER_REJECTED: { status: 422, message: "The partner refused the request." },
  PROVIDER_UNAVAILABLE: { status: 502, message: "The partner is unavailable." },
  RATE_LIMITED: { status: 429, message: "Too many requests." },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is too large." },
  INVALID_JSON: { status: 400, message: "The request body is not valid JSON." },
  HEADERS_TOO_LARGE: { status: 431, message: "The request's headers (the URL included) are too large." },
  INTERNAL: { status: 500, message: "Internal server error." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export interface FieldIssue {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_TABLE[code].message,
    readonly details?: FieldIssue[],
    /** Response headers the error implies, e.g. Retry-After for RATE_LIMITED. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_TABLE[code].status;
  }
}

/** The single wire shape of an error (REST body; GraphQL extensions carry code and status). */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  requestId: string;
  details?: FieldIssue[];
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    code: error.code,
    message: error.message,
    status: error.status,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}
