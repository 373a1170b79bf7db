import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { z } from "zod";
import type { OperatorActor } from "../audit/types.js";
import { DELEGATION_RULES, type ActingContext } from "../auth/delegation.js";
import type { App } from "../app.js";
import { perform, type AnyOperation } from "../operations/operation.js";
import { AppError } from "../errors.js";
import { isObject, refuseDeepInput } from "../validation.js";
import { cacheable, errorResponses, jsonSchema, sentBody } from "./http.js";
import { toWire, wireSchema, type WireForm } from "./wire-form.js";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface RestFace<Result> {
  method: Method;
  /** The literal path; `:name` segments are fields of the operation's input. */
  url: string;
  tags: string[];
  /** The success status and the JSON Schema of its body: the operation's output by default; null: no body. */
  status?: number;
  response?: object | null;
  /** Another success status a result can answer with (200 for an invitation sent again, say), and when. */
  alternative?: { status: number; when: (result: Result) => boolean };
  /** The error statuses the route can answer, for the document. */
  errors: number[];
  /**
   * The input as the wire carries it, where that is not the path over the body (or the query): fiat accounts
   * take their country from the alias path, the query or the body. `documented` then says what the document
   * shows of that wire.
   */
  input?: (request: FastifyRequest) => unknown;
  /** Where the input is read (and documented): the query of a GET or DELETE and the body of others by default. */
  from?: "query" | "body";
  documented?: { querystring?: object; body?: object; headers?: object };
  /** A body size cap below the server's (the route answers 413 before parsing more). */
  bodyLimit?: number;
  /** The service's result under the wire's names (default: as it is). */
  reply?: (result: Result) => unknown;
  /** The operation's output answered under this one key (`{ partner: ... }`), as the reference wraps it. */
  envelope?: string;
  /** How the reference's wire spells the operation's output, where it differs: the answer and its schema follow. */
  wire?: WireForm;
  /**
   * The service answers repeated reads with the same object from its cache (status polling), which the cache
   * froze as it stored it: the body is serialized and encoded once per object and kept beside it.
   */
  cachedResults?: true;
  /** The answer is the same for everyone for a while (reference data): shared caches may keep it. */
  cacheable?: true;
  /**
   * The result's version, sent as its ETag: a request whose If-None-Match names it is answered 304
   * without a body (receivers revalidate a cached key cheaply).
   */
  etag?: (result: Result) => string;
  /**
   * Body fields the wire names otherwise (the reference's snake_case), by their names in the operation: the
   * body is read and documented under the wire's names, and validation errors name the fields as sent.
   */
  wireNames?: Record<string, string>;
  /** Runs before anything else (the sign-in limit, per client address); the route skips the general per-IP limit. */
  onRequest?: (request: FastifyRequest) => void;
  /**
   * The body and query field that presents a public key (the reference's `apiKey`): authentication reads it
   * with the headers' credentials, so it is no field of the operation's input.
   */
  publicKeyField?: string;
}

/** Every operation served over REST, with its route and where its input is read: what the parity test walks. */
export const REST_FACES = new Map<
  AnyOperation,
  { method: Method; url: string; inQuery: boolean; wireNames?: Record<string, string> }
>();

/** An object's keys renamed by `names` (others kept); anything else as it is. */
const renameKeys = (value: unknown, names: Record<string, string>) =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [names[key] ?? key, inner])) : value;

/** A JSON Schema object's properties (and required list) under other names. */
function renameProperties(schema: object, names: Record<string, string>): object {
  const { properties, required, ...rest } = schema as { properties?: Record<string, unknown>; required?: string[] };
  return {
    ...rest,
    ...(properties && { properties: renameKeys(properties, names) }),
    ...(required && { required: required.map((name) => names[name] ?? name) }),
  };
}

/** A validation error whose details name the fields as the wire does. */
function underWireNames(error: unknown, names: Record<string, string>): unknown {
  if (!(error instanceof AppError) || !error.details) return error;
  const details = error.details.map((issue) => ({
    ...issue,
    field: issue.field.replace(/^[^.]+/, (head) => names[head] ?? head),
  }));
  return new AppError(error.code, error.message, details, error.headers);
}

/** A JSON Schema object with one more property. */
function withProperty(schema: object | undefined, name: string, property: object): object {
  const { properties, ...rest } = (schema ?? { type: "object" }) as { properties?: Record<string, unknown> };
  return { ...rest, properties: { ...properties, [name]: property } };
}

/** What the body or query sent, without `field` (authentication has read it). */
function without(sent: unknown, field: string | undefined): unknown {
  if (field === undefined || !isObject(sent) || !(field in sent)) return sent;
  const { [field]: _read, ...rest } = sent;
  return rest;
}

const PRESENTED_PUBLIC_KEY = {
  type: "string",
  maxLength: 40,
  description:
    "A public key (pk_...) that attributes the request as X-Public-Key does. Beside a key in the headers (or in " +
    "both the body and the query) it must be of the same credential (403 CREDENTIAL_MISMATCH); a session in " +
    "the headers still acts. Malformed, unknown, expired or revoked: 401 INVALID_PUBLIC_KEY.",
};

/**
 * The path parameters over what the body or query sent. No body is an empty one; any other body that is not
 * an object (JSON null too) goes to validation as it is, to be refused there.
 */
const pathOver = (sent: unknown, params: unknown) =>
  sent === undefined || isObject(sent) ? { ...sent, ...(params as object) } : sent;

/** True when an If-None-Match header names `etag` (weak comparison; `*` matches anything). */
function namesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

/**
 * Who acts: the acting context authentication resolved, or for the operator token, which every operator
 * shares, the request that carried it.
 */
const actingOf = (request: FastifyRequest): ActingContext | OperatorActor | null =>
  request.principal.kind === "operator"
    ? { channel: "rest", requestId: request.id, clientAddress: request.ip }
    : request.acting;

const JSON_BODY = "application/json; charset=utf-8";
const PATH_PARAMETER = /:([A-Za-z]+)/g;

/**
 * Serves an operation as a REST route. Its access rule becomes the route's config (enforced before the body
 * is read), its input schema the documented parameters and body; the input is read from the path parameters
 * over the query string (GET, DELETE) or the JSON body, and validated by the operation itself.
 */
export function operationRoute<Result>(
  server: FastifyInstance,
  app: App,
  operation: AnyOperation<Result>,
  face: RestFace<Result>,
) {
  const pathKeys = [...face.url.matchAll(PATH_PARAMETER)].map((match) => match[1]!);
  // zod's pick and omit take a mask of literal keys; these come from the path at run time.
  const pathMask = Object.fromEntries(pathKeys.map((key) => [key, true])) as Record<string, true> &
    Record<number, never>;
  const { input } = operation;
  // zod refuses omit on a schema with refinements, even of nothing: only split when the path has fields.
  const rest = pathKeys.length > 0 ? input.omit(pathMask) : input;
  const inQuery = face.from ? face.from === "query" : face.method === "GET" || face.method === "DELETE";
  const hasFields = Object.keys(rest.shape).length > 0;
  const status = face.status ?? 200;
  REST_FACES.set(operation, { method: face.method, url: face.url, inQuery, wireNames: face.wireNames });
  const { wireNames, publicKeyField } = face;
  const fromWire = wireNames && Object.fromEntries(Object.entries(wireNames).map(([name, wire]) => [wire, name]));
  const documentedRest = (schema: object) => (wireNames ? renameProperties(schema, wireNames) : schema);
  // The input's fields where it is read from; the presented public key, if any, in the query and the body alike.
  const inputSchema = hasFields ? documentedRest(jsonSchema(rest, "input")) : undefined;
  const presenting = (schema: object | undefined) =>
    publicKeyField ? withProperty(schema, publicKeyField, PRESENTED_PUBLIC_KEY) : schema;
  const [documentedQuery, documentedBody] = inQuery
    ? [presenting(inputSchema), undefined]
    : [presenting(undefined), presenting(inputSchema)];
  const serialized = face.cachedResults && new WeakMap<object, Buffer>();
  const { envelope, wire } = face;
  let output: z.ZodType | undefined = operation.output;
  if (wire) {
    if (!(output instanceof z.ZodObject)) throw new Error(`${operation.name}: a wire form spells an output object`);
    output = wireSchema(output, wire);
  }
  const response =
    face.response !== undefined
      ? face.response
      : output && jsonSchema(envelope ? z.object({ [envelope]: output }) : output);
  if (response === undefined) throw new Error(`${operation.name} declares no output, and its route no response`);
  const spelled = wire ? (result: Result) => toWire(result, wire) : (result: Result) => result;
  const replied = face.reply ?? (envelope ? (result: Result) => ({ [envelope]: spelled(result) }) : wire && spelled);

  server.route({
    method: face.method,
    url: face.url,
    config: {
      capabilities: operation.access.requires,
      delegation: DELEGATION_RULES[operation.access.delegation],
      ...(face.onRequest && { rateLimit: false }),
      ...(publicKeyField && { publicKeyField }),
    },
    ...(face.onRequest && { onRequest: async (request: FastifyRequest) => face.onRequest!(request) }),
    // A body nested too deep is refused before anything reads it, the operation's gate included. Query strings
    // need no such check: Fastify's parser makes them flat (a value or a list of values per name).
    ...(!inQuery && {
      preValidation: (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        refuseDeepInput(request.body);
        done();
      },
    }),
    ...(face.bodyLimit && { bodyLimit: face.bodyLimit }),
    schema: {
      operationId: operation.name,
      summary: operation.summary,
      tags: face.tags,
      ...(pathKeys.length > 0 && { params: jsonSchema(input.pick(pathMask), "input") }),
      ...(documentedQuery && { querystring: documentedQuery }),
      ...(documentedBody && { body: documentedBody }),
      ...face.documented,
      response: {
        [status]: response ?? { type: "null" },
        ...(face.alternative && { [face.alternative.status]: response ?? { type: "null" } }),
        ...(face.etag && { 304: { type: "null", description: "Not modified: If-None-Match named the current ETag." } }),
        ...errorResponses(...face.errors),
      },
    },
    handler: async (request: FastifyRequest, reply) => {
      const sent = pathOver(without(inQuery ? request.query : sentBody(request), publicKeyField), request.params);
      // What the face's reading refuses is answered after the operation's gate (see perform).
      let wire: unknown = sent;
      let refused: unknown;
      try {
        if (face.input) wire = face.input(request);
      } catch (error) {
        refused = error;
      }
      let result: Result;
      try {
        result = await perform(
          operation,
          app,
          actingOf(request),
          fromWire ? renameKeys(wire, fromWire) : wire,
          refused,
        );
      } catch (error) {
        throw wireNames ? underWireNames(error, wireNames) : error;
      }
      const answered = face.alternative?.when(result) ? face.alternative.status : status;
      // Made only when sent: a result serialized before (cachedResults) is answered without it.
      const body = () => (replied ? replied(result) : response === null ? undefined : result);
      reply.code(answered);
      if (face.cacheable) cacheable(reply);
      if (face.etag) {
        const etag = face.etag(result);
        reply.header("ETag", etag);
        if (namesEtag(request.headers["if-none-match"], etag)) return reply.code(304).send();
      }
      if (!serialized || !isObject(result)) return reply.send(body());
      let bytes = serialized.get(result);
      // The route's serializer (fast-json-stringify) answers a string; Fastify's type allows buffers too.
      if (bytes === undefined) serialized.set(result, (bytes = Buffer.from(reply.serialize(body()) as string)));
      return reply.type(JSON_BODY).send(bytes);
    },
  });
}
