import type { FastifyReply, FastifySchema } from "fastify";
import type { z } from "zod";
import { z as zod } from "zod";
import { CAPABILITY_MATRIX, type Capability } from "../auth/capabilities.js";
import type { ActingContext, DelegationRule } from "../auth/delegation.js";
import type { Principal, PrincipalKind } from "../auth/principal.js";
import { AppError } from "../errors.js";
import { aliasedName, type DomesticCountry, type PathAlias } from "../reference-data/domestic.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook on every route that declares capabilities (and on /graphql). */
    principal: Principal;
    /** Who acts for whom, resolved with the route's delegation rule (null: the caller speaks for no profile). */
    acting: ActingContext | null;
  }
  interface FastifyContextConfig {
    /** Tasks of the capability matrix this route performs; the authentication hook enforces them. */
    capabilities?: readonly Capability[];
    /** Answers anyone, unauthenticated: said explicitly, since a route that declares no rule refuses to start. */
    public?: true;
    /** How X-Managed-Profile-Id and managed children's own credentials apply; required with capabilities. */
    delegation?: DelegationRule;
    /** Errors on this route are answered in GraphQL's shape. */
    graphql?: boolean;
    /** `false`: not counted by the per-IP rate limit (health checks; sign-in has its own). */
    rateLimit?: false;
  }
}

/**
 * A zod schema as JSON Schema for the OpenAPI document and response serialization. Request bodies are
 * validated by the services (the same zod schemas), after authentication, not by Fastify.
 */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output") {
  const { $schema: _dialect, ...rest } = zod.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
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

/** The acting context of a request whose route needs one (every capability but sign-in and operator). */
export function actingOf(request: { acting: ActingContext | null }): ActingContext {
  if (!request.acting) throw new AppError("AUTHENTICATION_REQUIRED");
  return request.acting;
}

/** The selector header, as sent (any value, even empty, counts as sent), from HTTP or connection_init headers. */
export function managedProfileSelector(headers: Record<string, unknown>): string | undefined {
  const value = headers["x-managed-profile-id"];
  if (value === undefined || value === null) return undefined;
  return String(Array.isArray(value) ? value[0] : value);
}

/** Public data that changes only with a deployment or a key rotation: the same for every caller, for 5 minutes. */
export function cacheable<T>(reply: FastifyReply, body: T): T {
  void reply.header("Cache-Control", "public, max-age=300");
  return body;
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

/**
 * What the OpenAPI document says about who may call a route, derived from the rule the server enforces
 * (its capabilities and delegation): the security requirements, the selector header where it applies, and
 * a description of both when the route has none of its own. Public routes get `security: []`.
 */
export function documentedAccess(
  // Routes without a schema of their own (health checks) come with none.
  schema: (FastifySchema & { description?: string }) | undefined,
  config: { capabilities?: readonly Capability[]; delegation?: DelegationRule; public?: true } | undefined,
): FastifySchema {
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
            description: "Acts for this managed child of the caller (its profile id).",
          },
        },
      },
    }),
  };
}

const ALIAS_PREFIX = /^\/v1\/(ar|co|mx|brla)\//;

/** The country a domestic alias path names (`/v1/mx/...`: MX); none under `/v1/domestic`. */
export function pathCountry(url: string): DomesticCountry | undefined {
  const alias = ALIAS_PREFIX.exec(url)?.[1];
  return alias === undefined || alias === "brla" ? undefined : (alias.toUpperCase() as DomesticCountry);
}

/**
 * The operationId and summary of a route, which may be served under an alias prefix (`/v1/ar`, `/v1/brla`,
 * ...): an alias's id carries the alias, so every operation keeps a unique one.
 */
export function aliasedOperation(operationId: string, summary: string, url: string) {
  const named = aliasedName(operationId, summary, ALIAS_PREFIX.exec(url)?.[1] as PathAlias | undefined);
  return { operationId: named.name, summary: named.summary };
}
