import type { FastifyReply, FastifyRequest, FastifySchema } from "fastify";
import type { z } from "zod";
import { z as zod } from "zod";
import { CAPABILITY_MATRIX, type Capability } from "../auth/capabilities.js";
import type { ActingContext, DelegationRule } from "../auth/delegation.js";
import type { Principal, PrincipalKind } from "../auth/principal.js";
import type { Partner } from "../providers/partners.js";
import { valueMeanings } from "../enums.js";
import { AppError, type ErrorCode } from "../errors.js";
import { DOMESTIC_COUNTRIES, type DomesticCountry } from "../reference-data/domestic.js";
import { fieldError, isObject } from "../validation.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook on every route that declares capabilities (and on /graphql). */
    principal: Principal;
    /** Who acts for whom, resolved with the route's delegation rule (null: the caller speaks for no profile). */
    acting: ActingContext | null;
    /** The code of the error the request was answered with, for its log line. */
    errorCode?: ErrorCode;
  }
  interface FastifyContextConfig {
    /** Tasks of the capability matrix this route performs; the authentication hook enforces them. */
    capabilities?: readonly Capability[];
    /** Answers anyone, unauthenticated: said explicitly, since a route that declares no rule refuses to start. */
    public?: true;
    /**
     * A partner's callbacks: no caller credential, the partner's signature over the raw body, verified before the
     * handler (a partner without settings has no such route: 404).
     */
    partnerSignature?: Partner;
    /** How X-Managed-Profile-Id and managed children's own credentials apply; required with capabilities. */
    delegation?: DelegationRule;
    /** Errors on this route are answered in GraphQL's shape. */
    graphql?: boolean;
    /** `false`: not counted by the per-IP rate limit (health checks; sign-in has its own). */
    rateLimit?: false;
    /**
     * The query and body field that presents a public key beside the headers' credentials (the reference's
     * `apiKey` on quote and widget session creation): the authentication hooks read it.
     */
    publicKeyField?: string;
  }
}

/**
 * A zod schema as JSON Schema for the OpenAPI document and response serialization. Request bodies are
 * validated by the services (the same zod schemas), after authentication, not by Fastify.
 */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output") {
  const { $schema: _dialect, ...rest } = zod.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // The services' instants (Date) are written as RFC 3339 date-times, as the serializer writes a Date.
    override: ({ zodSchema, jsonSchema: written }) => {
      if (zodSchema._zod.def.type === "date") Object.assign(written, { type: "string", format: "date-time" });
      // A field of a declared enum lists what its values mean, as GraphQL describes each value.
      // A wrapper (optional, default) copies what its enum wrote unless it has a description of its own.
      const meanings = valueMeanings(zodSchema);
      if (meanings && !written.description?.endsWith(meanings))
        written.description = written.description ? `${written.description}\n\n${meanings}` : meanings;
    },
  }) as Record<string, unknown>;
  return rest;
}

export const isoDateTime = zod.iso.datetime();

const errorResponse = zod.object({
  error: zod.object({
    code: zod.string(),
    message: zod.string(),
    status: zod.number().int(),
    requestId: zod.string(),
    details: zod.array(zod.object({ field: zod.string(), message: zod.string() })).optional(),
  }),
});

/** The error envelope, registered once (`server.addSchema`) and referred to by every route's error answers. */
export const ERROR_RESPONSE_SCHEMA = { $id: "ErrorResponse", ...jsonSchema(errorResponse) };

/** A route's error answers, for the OpenAPI document: each status with the shared envelope. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, { $ref: "ErrorResponse#" }]));
}

/** The selector header, as sent (any value, even empty, counts as sent), from HTTP or connection_init headers. */
export function managedProfileSelector(headers: Record<string, unknown>): string | undefined {
  const value = headers["x-managed-profile-id"];
  if (value === undefined || value === null) return undefined;
  return String(Array.isArray(value) ? value[0] : value);
}

/**
 * The public values a query or body presents in `field`: none when it is absent or null. Anything but one
 * string (a list, a repeated query parameter) is no public value at all.
 */
export function presentedPublicKeys(sent: unknown, field: string | undefined): string[] {
  const value = field !== undefined && isObject(sent) ? sent[field] : undefined;
  if (value === undefined || value === null) return [];
  if (typeof value !== "string") throw new AppError("INVALID_PUBLIC_KEY");
  return [value];
}

/** Public data that changes only with a deployment or a key rotation: the same for every caller, for 5 minutes. */
export function cacheable(reply: FastifyReply): void {
  void reply.header("Cache-Control", "public, max-age=300");
}

/** The OpenAPI security scheme each kind of caller authenticates with (`{}`: none at all). */
const SCHEME_OF: Record<PrincipalKind, Record<string, string[]>> = {
  anonymous: {},
  public: { PublicApiKey: [] },
  secret: { SecretApiKey: [] },
  session: { BearerAuth: [] },
  operator: { OperatorToken: [] },
};

const CALLER_NAMES: Record<PrincipalKind, string> = {
  anonymous: "no credential",
  public: "a public key",
  secret: "a secret key",
  session: "a session",
  operator: "the operator token",
};

const CALLER_LIST = new Intl.ListFormat("en", { type: "disjunction" });

/** The OpenAPI security scheme of each partner's callback signature (src/http/openapi.ts declares them). */
export const PARTNER_SIGNATURE_SCHEMES: Record<Partner, string> = {
  Avenia: "AveniaSignature",
  Alfredpay: "AlfredpaySignature",
};

/**
 * What the OpenAPI document says about who may call a route, derived from the rule the server enforces
 * (its capabilities and delegation, or a partner's signature): the security requirements, the selector header
 * where it applies, and a description of both when the route has none of its own. Public routes get `security: []`.
 */
export function documentedAccess(
  // Routes without a schema of their own (health checks) come with none.
  schema: (FastifySchema & { description?: string }) | undefined,
  config:
    | { capabilities?: readonly Capability[]; delegation?: DelegationRule; public?: true; partnerSignature?: Partner }
    | undefined,
): FastifySchema {
  const partner = config?.partnerSignature;
  if (partner)
    return {
      ...schema,
      description: schema?.description ?? `Partner-facing: ${partner}'s signature only.`,
      security: [{ [PARTNER_SIGNATURE_SCHEMES[partner]]: [] }],
    };
  const capabilities = config?.capabilities ?? [];
  const kinds = config?.public
    ? []
    : (Object.keys(SCHEME_OF) as PrincipalKind[]).filter((kind) =>
        capabilities.every((capability) => (CAPABILITY_MATRIX[capability] as readonly string[]).includes(kind)),
      );
  const selector = config?.delegation?.selector === "supported";
  const callers = config?.public
    ? "Public."
    : `Callers: ${CALLER_LIST.format(kinds.map((kind) => CALLER_NAMES[kind]))}.`;
  const delegation = selector ? " X-Managed-Profile-Id acts for one of the caller's managed children." : "";
  const headers = schema?.headers as { properties?: Record<string, unknown> } | undefined;
  return {
    ...schema,
    description: schema?.description ?? `${callers}${delegation}`,
    security: kinds.map((kind) => SCHEME_OF[kind]),
    ...(selector && {
      headers: {
        ...headers,
        type: "object",
        properties: {
          ...headers?.properties,
          "X-Managed-Profile-Id": {
            type: "string",
            format: "uuid",
            maxLength: 36,
            description: "Acts for this managed child of the caller (its profile id).",
          },
        },
      },
    }),
  };
}

const ALIAS_PREFIX = /^\/v1\/(ar|co|mx|brla)\//;

/** The country a domestic alias path names (`/v1/mx/...`: MX); none under `/v1/domestic`. */
function pathCountry(url: string): DomesticCountry | undefined {
  const alias = ALIAS_PREFIX.exec(url)?.[1];
  return alias === undefined || alias === "brla" ? undefined : (alias.toUpperCase() as DomesticCountry);
}

/**
 * The request's JSON body, undefined when it sent none: Fastify gives null for a missing body on a route that
 * documents one, while a JSON null always comes with its Content-Type.
 */
export function sentBody(request: FastifyRequest): unknown {
  return request.body === null && request.headers["content-type"] === undefined ? undefined : request.body;
}

/** The body's bytes on a route that keeps them (partner callbacks): none sent is no bytes. */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/**
 * The country a domestic request is about, from every place the wire may name it: the alias path, the query
 * and the body. All that name one must name the same (a conflict is 400), and at least one must.
 */
function requestCountry(
  url: string,
  { query, body }: { query: unknown; body: unknown },
  allowed: readonly DomesticCountry[] = DOMESTIC_COUNTRIES,
): DomesticCountry {
  const named: [string, unknown][] = [
    ["path", pathCountry(url)],
    ["query", isObject(query) ? query.country : undefined],
    ["body", isObject(body) ? body.country : undefined],
  ];
  const given = named.filter(([, value]) => value !== undefined && value !== null);
  const invalid = (message: string) => fieldError("country", message);
  for (const [where, value] of given) {
    if (!(allowed as readonly unknown[]).includes(value))
      throw invalid(`in the ${where} must be one of ${allowed.join(", ")}`);
  }
  if (given.length === 0) throw invalid(`is required (one of ${allowed.join(", ")})`);
  const [first, ...others] = given as [string, DomesticCountry][];
  const conflict = others.find(([, value]) => value !== first![1]);
  if (conflict)
    throw invalid(`differs between the ${first![0]} (${first![1]}) and the ${conflict[0]} (${conflict[1]})`);
  return first![1];
}

/**
 * A domestic route's input: what it sent (the query of a read, the body of a change; none is an empty one)
 * with the country `requestCountry` decided. Anything else that is not an object (JSON null too) goes on to
 * be refused.
 */
export const withRequestCountry =
  (url: string, from: "query" | "body", allowed?: readonly DomesticCountry[]) =>
  (request: FastifyRequest): unknown => {
    const sent = from === "query" ? request.query : sentBody(request);
    if (sent !== undefined && !isObject(sent)) return sent;
    return { ...sent, country: requestCountry(url, request, allowed) };
  };
