import { randomUUID } from "node:crypto";
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type IntrospectionQuery,
  type OperationTypeNode,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { testEngine } from "../support/database.js";
import { BUY_QUOTE, EVM_ADDRESS, ok } from "../support/kit.js";
import { JPEG_FILE, randomCpf } from "../support/kyc.js";
import { multipartForm } from "../support/multipart.js";
import { newCallbackSecret, standardWebhookHeaders } from "../support/partner-callbacks.js";
import { FrameSocket } from "../support/ws-client.js";

/**
 * 10,000 generated requests over every operation and transport (issue 40, item 3): every REST route of the served
 * OpenAPI document, every GraphQL root field over HTTP (the operator's on /admin/graphql) and a share over
 * graphql-ws, from callers of every kind. Each input starts well-formed (from the route's schema, ids and values
 * the callers own, known-good bodies) and most are then broken: wrong types, huge strings, deep nesting, NUL
 * characters, odd unicode, numbers out of range, fields added or left out, arrays for objects. No answer may be
 * a 5xx (a GraphQL error with status 500, or a socket closed as an internal error). The generator is seeded
 * (FUZZ_SEED overrides the seed): a failure prints the seed and the requests that failed.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 40);
const REQUESTS = 10_000;
/** Requests in flight at once. */
const CONCURRENCY = 16;
/** Of the requests: REST's share, GraphQL over HTTP's, and the rest over WebSocket. */
const REST_SHARE = 0.6;
const GRAPHQL_SHARE = 0.35;

type Headers = Record<string, string>;

/** mulberry32: small, fast and seedable, so a run can be replayed. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
}

/** A value nested `depth` deep (arrays or objects), written out only when the request is encoded. */
class Deep {
  constructor(
    readonly depth: number,
    readonly kind: "array" | "object",
  ) {}
  text(): string {
    return this.kind === "array"
      ? `${"[".repeat(this.depth)}${"]".repeat(this.depth)}`
      : `${'{"a":'.repeat(this.depth)}1${"}".repeat(this.depth)}`;
  }
}

/** JSON text of a generated value, `Deep` values written out without building them. */
function encode(value: unknown): string {
  if (value instanceof Deep) return value.text();
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : encode(item))).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => `${JSON.stringify(key)}:${encode(inner)}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** Text percent-encoded as UTF-8 (a lone surrogate as the replacement character, as a client would send it). */
const percentEncoded = (text: string) => encodeURIComponent(Buffer.from(text, "utf8").toString("utf8"));

// --- broken values -------------------------------------------------------------------------------------

const ODD_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "0x1111111111111111111111111111111111111111\n",
  "-1",
  "0",
  "NaN",
  "null",
  "true",
  "1e309",
  "💸🏦",
  "\u202eevil",
  "e\u0301",
  "\ud800",
  "ß".repeat(300),
  "%00",
  "../../etc/passwd",
  '\'; DROP TABLE "Profile"; --',
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "{{7*7}}",
  "00000000-0000-0000-0000-000000000000",
  "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
  "2026-02-30T10:00:00Z",
  "9".repeat(40),
];
const ODD_NUMBERS = [-1, 0, 1.5, -0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324];

/** Something a field should not be: another type, a huge string, deep nesting, odd text or an odd number. */
function brokenValue(random: Random): unknown {
  switch (random.int(9)) {
    case 0:
      return random.pick([true, false, null, 0, {}, [], [1, 2], { a: 1 }]);
    case 1:
      return "x".repeat(random.pick([257, 1025, 10_000, 100_000]));
    case 2:
      return new Deep(random.pick([64, 65, 1000, 5000, 10_000, 100_000]), random.chance(0.5) ? "array" : "object");
    case 3:
    case 4:
      return random.pick(ODD_TEXT);
    case 5:
      return random.pick(ODD_NUMBERS);
    case 6:
      return [random.pick(ODD_TEXT), random.pick(ODD_TEXT)];
    case 7:
      return { value: random.pick(ODD_TEXT), nested: { deeper: random.pick(ODD_NUMBERS) } };
    default:
      return `${random.pick(["pix", "polygon", "BRL", "BR", "Ana"])}${random.pick(ODD_TEXT)}`;
  }
}

/**
 * A value of the same type at an edge: what validation may let through to the service (text at or past a bound,
 * blank, other scripts or case, padded; numbers at and past their bounds; the other boolean).
 */
function edgeOf(random: Random, value: unknown): unknown {
  if (typeof value === "string")
    return random.pick([
      "",
      "   ",
      value.toUpperCase(),
      value.toLowerCase(),
      ` ${value} `,
      `${value}\n`,
      value.repeat(2),
      value.slice(0, -1),
      "a".repeat(random.pick([31, 32, 33, 99, 100, 101, 199, 200, 201, 255, 256, 257, 4096, 4097])),
      "😀".repeat(60),
      "ä".repeat(120),
      "9".repeat(random.pick([11, 14, 18, 22, 31, 61])),
      `${value}.000000000000000000000000000001`,
      "0",
      "0.00",
    ]);
  if (typeof value === "number")
    return random.pick([0, -1, 1, 99, 100, 101, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, value + 1, -value]);
  if (typeof value === "boolean") return !value;
  if (Array.isArray(value)) return random.pick([[], [...value, ...value], Array.from({ length: 101 }, () => value[0])]);
  return value;
}

/** Breaks an input object in one to three ways (or replaces it altogether). */
function breakInput(random: Random, input: Record<string, unknown>): unknown {
  if (random.chance(0.06)) return random.pick([null, 42, "text", [], [input], new Deep(5000, "array"), true]);
  const broken: Record<string, unknown> = { ...input };
  const times = 1 + random.int(3);
  for (let time = 0; time < times; time++) {
    const keys = Object.keys(broken);
    const key = keys.length ? random.pick(keys) : "extra";
    switch (random.int(8)) {
      case 0:
        delete broken[key];
        break;
      case 1:
        broken[random.pick(["extra", "__proto__", "constructor", "x".repeat(300), "a\u0000"])] = brokenValue(random);
        break;
      case 2:
        broken[key] = [broken[key]];
        break;
      case 3:
      case 4:
        broken[key] = edgeOf(random, broken[key]);
        break;
      default:
        broken[key] = brokenValue(random);
    }
  }
  return broken;
}

// --- values from schemas -------------------------------------------------------------------------------

/** Values of the fixtures by field name: what a well-formed input names (ids the callers own, valid tax ids...). */
type Pool = Map<string, unknown[]>;

/** Known-good values of fields the schemas describe only as strings. */
const GOOD_VALUES: Record<string, unknown[]> = {
  email: ["fuzz@example.com", "Ana.Souza@Example.com"],
  contactEmail: ["child@example.com"],
  walletAddress: [EVM_ADDRESS, "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"],
  destinationAddress: [EVM_ADDRESS],
  address: [EVM_ADDRESS],
  url: ["https://93.184.215.14/hook"],
  callbackUrl: ["https://example.com/back"],
  inputAmount: ["100", "250.00", "50.00"],
  from: ["pix", "polygon", "sepa"],
  to: ["polygon", "pix", "base"],
  inputCurrency: ["BRL", "USDC", "EUR"],
  outputCurrency: ["USDC", "BRL", "EURC"],
  network: ["polygon", "base", "assethub"],
  paymentMethod: ["pix", "sepa", "spei"],
  countryCode: ["BR", "MX", "br"],
  fiatCurrency: ["BRL"],
  name: ["Ana Souza", "fuzz"],
  fullName: ["Ana Souza"],
  firstName: ["Ana"],
  lastName: ["Souza"],
  businessName: ["Acme"],
  accountName: ["Jane Doe"],
  accountNumber: ["000123456789", "002010077777777771", "2850590940090418135201"],
  routingNumber: ["021000021"],
  dateOfBirth: ["1990-04-12"],
  documentNumber: ["12345678"],
  pixKey: ["+5511987654321"],
  locale: ["en"],
  externalSubjectId: ["customer-42"],
  externalSessionId: ["fuzz"],
  relationship: ["friend"],
  percentageOfOwnership: ["25"],
  estimatedMonthlyVolumeUsd: ["50000"],
  importToken: ["share-token"],
};

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

/** A well-formed value of a JSON Schema for a field of that name (the pool's values first). */
function fromSchema(random: Random, pool: Pool, schema: JsonSchema, name: string): unknown {
  const known = [...(pool.get(name) ?? []), ...(GOOD_VALUES[name] ?? [])];
  if (known.length && random.chance(0.8)) return random.pick(known);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fromSchema(random, pool, random.pick(choices), name);
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== "null") : schema.type;
  switch (type) {
    case "integer":
    case "number": {
      const low = schema.minimum ?? 0;
      const high = Math.min(schema.maximum ?? 100, low + 100);
      return low + random.int(high - low + 1);
    }
    case "boolean":
      return random.chance(0.5);
    case "array": {
      const length = Math.max(schema.minItems ?? 0, random.int(3));
      return Array.from({ length }, () => fromSchema(random, pool, schema.items ?? {}, name));
    }
    case "object": {
      const object: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        if (schema.required?.includes(key) || random.chance(0.5)) object[key] = fromSchema(random, pool, property, key);
      return object;
    }
    default:
      if (schema.format === "uuid" || /Id$/.test(name)) return random.chance(0.5) ? randomUUID() : "not-an-id";
      if (schema.format === "date-time") return new Date(Date.now() + random.int(1e9) - 5e8).toISOString();
      if (schema.format === "email") return "fuzz@example.com";
      if (schema.format === "uri") return "https://example.com/";
      return "fuzz".slice(0, Math.max(schema.maxLength ?? 4, 1)).padEnd(schema.minLength ?? 0, "z");
  }
}

// --- REST ----------------------------------------------------------------------------------------------

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: JsonSchema;
}

interface Route {
  method: string;
  path: string;
  operationId: string;
  /** The security schemes any of which admits a caller (none: public). */
  schemes: string[];
  parameters: Parameter[];
  body?: { mediaType: string; schema: JsonSchema };
}

interface OpenApiOperation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

function routesOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Route[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      return {
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        schemes: (operation.security ?? []).flatMap(Object.keys),
        parameters: operation.parameters ?? [],
        ...(mediaType && content && { body: { mediaType, schema: content.schema } }),
      };
    }),
  );
}

/** Who calls: headers by security scheme, and a manager whose child a selector may name. */
interface Callers {
  bySchemes: Record<string, Headers[]>;
  /** Every caller, anonymous and invalid ones included. */
  all: Headers[];
  /** The callers whose credentials are valid. */
  valid: Headers[];
  selectors: string[];
}

/** Well-formed bodies of operations whose schema alone cannot describe one (checksums, corridors, fixtures). */
function goodBodies(pool: Pool): Partial<Record<string, () => Record<string, unknown>>> {
  const first = (name: string) => pool.get(name)?.[0];
  return {
    createQuote: () => ({ ...BUY_QUOTE }),
    createBestQuote: () => ({ rampType: "BUY", inputAmount: "100", inputCurrency: "BRL", outputCurrency: "USDC" }),
    registerRamp: () => ({ quoteId: first("quoteId"), destinationAddress: EVM_ADDRESS }),
    createSubaccount: () => ({ accountType: "INDIVIDUAL", name: "Ana Souza", taxId: randomCpf() }),
    createDomesticFiatAccount: () => ({
      country: "US",
      type: "ACH",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      accountType: "checking",
      accountName: "Jane Doe",
    }),
    submitDomesticKycInformation: () => ({
      country: "MX",
      firstName: "Ana",
      lastName: "Souza",
      dateOfBirth: "1990-04-12",
      documentNumber: "12345678",
    }),
    registerWebhook: () => ({ url: "https://93.184.215.14/hook", quoteId: first("quoteId") }),
    createWidgetSession: () => ({ rampType: "BUY", network: "polygon", inputAmount: "100", externalSessionId: "fuzz" }),
    inviteRecipient: () => ({ email: `${randomUUID()}@example.com`, relationship: "friend" }),
    requestOTP: () => ({ email: `${randomUUID()}@example.com` }),
  };
}

interface Sent {
  transport: "REST" | "GraphQL" | "WebSocket";
  /** The operation or field asked for. */
  target: string;
  description: string;
  status: number;
  answer: string;
}

const describeBody = (text: string | Buffer | undefined) =>
  text === undefined
    ? ""
    : ` ${String(text).length > 600 ? `${String(text).slice(0, 600)}… (${text.length} bytes)` : text}`;

/** One REST request: the route's input made, maybe broken, then sent in the form its route reads it. */
function restRequest(random: Random, route: Route, callers: Callers, pool: Pool, good: ReturnType<typeof goodBodies>) {
  const caller =
    random.chance(0.1) || route.schemes.length === 0
      ? random.pick(callers.all)
      : random.pick(route.schemes.flatMap((scheme) => callers.bySchemes[scheme] ?? []));
  const headers: Headers = { ...caller };
  if (random.chance(0.15))
    headers["x-managed-profile-id"] = random.chance(0.7) ? random.pick(callers.selectors) : String(brokenValue(random));
  if (random.chance(0.1)) headers["idempotency-key"] = random.chance(0.7) ? randomUUID() : "k".repeat(300);
  const broken = random.chance(0.75);

  let path = route.path;
  for (const parameter of route.parameters.filter((each) => each.in === "path")) {
    let value = String(fromSchema(random, pool, parameter.schema, parameter.name));
    if (broken && random.chance(0.3)) value = random.pick([...ODD_TEXT.filter(Boolean), "x".repeat(90), "a/b", "-1"]);
    path = path.replace(`{${parameter.name}}`, percentEncoded(value));
  }
  const query = new URLSearchParams();
  for (const parameter of route.parameters.filter((each) => each.in === "query")) {
    if (!parameter.required && random.chance(0.5)) continue;
    query.append(parameter.name, String(fromSchema(random, pool, parameter.schema, parameter.name)));
  }
  let search = query.toString();
  if (broken && random.chance(route.body ? 0.2 : 0.8)) {
    const names = route.parameters.filter((each) => each.in === "query").map((each) => each.name);
    const name = names.length ? random.pick(names) : "extra";
    const value = brokenValue(random);
    const text = typeof value === "string" ? value : encode(value);
    search = random.pick([
      `${search}&${name}=${percentEncoded(text)}`,
      `${search}&${name}=1&${name}=2`,
      `${search}&${name}[a][b]=1`,
      `${search}&${name}=%E0%A4%A`,
      `${name}=${percentEncoded(text)}`,
    ]);
  }
  const url = search ? `${path}?${search}` : path;

  let rawBody: string | Buffer | undefined;
  if (route.body?.mediaType === "application/json") {
    const base = good[route.operationId.replace(/(Ar|Co|Mx|Brla)$/, "")];
    const input = (
      base && random.chance(0.5) ? base() : fromSchema(random, pool, route.body.schema, "(body)")
    ) as Record<string, unknown>;
    rawBody = encode(broken && random.chance(0.85) ? breakInput(random, input) : input);
    headers["content-type"] = random.chance(0.97) ? "application/json" : "text/plain";
  } else if (route.body?.mediaType === "multipart/form-data") {
    const fields: Record<string, string | { bytes: Buffer; contentType: string }> = {};
    for (const [key, property] of Object.entries(route.body.schema.properties ?? {})) {
      if (key === "file") fields.file = { bytes: JPEG_FILE, contentType: random.pick(["image/jpeg", "text/plain"]) };
      else {
        const value = broken && random.chance(0.3) ? brokenValue(random) : fromSchema(random, pool, property, key);
        fields[key] = typeof value === "string" ? value : encode(value);
      }
    }
    const form = multipartForm(fields);
    rawBody = form.body;
    headers["content-type"] = form.contentType;
  } else if (route.body) {
    rawBody = random.chance(0.5) ? JPEG_FILE : Buffer.from(encode(brokenValue(random)));
    headers["content-type"] = random.pick([route.body.mediaType, "application/json", "image/png"]);
  } else if (broken && random.chance(0.2)) {
    rawBody = encode(breakInput(random, {}));
    headers["content-type"] = "application/json";
  }
  return { method: route.method, url, headers, rawBody };
}

/**
 * Partner callbacks are verified over their bytes before anything reads them: most are signed as their partner
 * would, so the generated bodies reach their validation and storage too.
 */
function signPartnerCallback(random: Random, route: Route, request: ReturnType<typeof restRequest>) {
  if (typeof request.rawBody !== "string" || random.chance(0.1)) return;
  if (route.operationId === "receiveAveniaCallback")
    request.headers.signature = t.partners.signAveniaCallback(request.rawBody);
  if (route.operationId === "receiveAlfredpayCallback")
    Object.assign(
      request.headers,
      standardWebhookHeaders(callbackSecret, `msg_${random.int(1e9)}`, request.rawBody, Date.now()),
    );
}

// --- GraphQL -------------------------------------------------------------------------------------------

/** A well-formed value of a GraphQL input type for an argument or field of that name. */
function fromInputType(random: Random, pool: Pool, type: GraphQLInputType, name: string, depth = 0): unknown {
  if (!isNonNullType(type) && random.chance(0.3)) return undefined;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const length = isNonNullType(type) ? 1 + random.int(2) : random.int(3);
    return Array.from({ length }, () => fromInputType(random, pool, nullable.ofType, name, depth + 1));
  }
  const known = [...(pool.get(name) ?? []), ...(GOOD_VALUES[name] ?? [])];
  if (isEnumType(nullable)) return random.pick(nullable.getValues()).name;
  if (isInputObjectType(nullable)) {
    if (depth > 4) return undefined;
    const object: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) {
      const value = fromInputType(random, pool, field.type, field.name, depth + 1);
      if (value !== undefined) object[field.name] = value;
    }
    return object;
  }
  if (known.length && random.chance(0.8)) return random.pick(known);
  switch (nullable.name) {
    case "Int":
      return random.int(50);
    case "Float":
      return random.next() * 100;
    case "Boolean":
      return random.chance(0.5);
    case "DateTime":
      return new Date().toISOString();
    case "Decimal":
      return "100.50";
    case "JSONObject":
      return { tx: "0x00" };
    case "ID":
      return random.chance(0.5) ? randomUUID() : random.pick([...pool.values()].flat().map(String));
    default:
      return "fuzz";
  }
}

/** A selection of a type's fields that take no required argument: leaves, and the leaves of objects one level down. */
function selectionOf(type: GraphQLNamedType, depth = 0): string {
  if (isLeafType(type)) return "";
  if (isUnionType(type) || isInterfaceType(type)) return "{ __typename }";
  if (!isObjectType(type)) return "";
  const fields = Object.values(type.getFields()).filter((field) =>
    field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined),
  );
  const selected = fields.flatMap((field) => {
    const named = getNamedType(field.type);
    if (isLeafType(named)) return [field.name];
    if (depth >= 1) return [];
    const inner = selectionOf(named, depth + 1);
    // A paged field asks for a small page: list sizes have a limit of their own.
    const page = field.args.some((arg) => arg.name === "first") ? "(first: 2)" : "";
    return inner && inner !== "{  }" ? [`${field.name}${page} ${inner}`] : [];
  });
  return `{ ${selected.length ? selected.join(" ") : "__typename"} }`;
}

interface RootField {
  kind: "query" | "mutation" | "subscription";
  field: GraphQLField<unknown, unknown>;
  admin: boolean;
}

function rootFields(schema: GraphQLSchema, admin: boolean): RootField[] {
  return (["query", "mutation", "subscription"] as const).flatMap((kind) => {
    const root = schema.getRootType(kind as OperationTypeNode);
    return root ? Object.values(root.getFields()).map((field) => ({ kind, field, admin })) : [];
  });
}

/** A document running one root field with every argument a variable, and those variables, maybe broken. */
function graphqlRequest(random: Random, root: RootField, pool: Pool) {
  const { field, kind } = root;
  const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`);
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  const query =
    `${kind}${declared.length ? `(${declared.join(", ")})` : ""} { ${field.name}` +
    `${passed.length ? `(${passed.join(", ")})` : ""} ${selectionOf(getNamedType(field.type))} }`;
  const variables: Record<string, unknown> = {};
  for (const arg of field.args) {
    const value = fromInputType(random, pool, arg.type, arg.name);
    if (value !== undefined) variables[arg.name] = value;
  }
  if (!random.chance(0.75)) return { query, variables: variables as unknown };
  // Breaks a variable, or something inside an input object.
  const objects = Object.entries(variables).filter(
    ([, value]) => value !== null && typeof value === "object" && !Array.isArray(value),
  );
  if (objects.length && random.chance(0.6)) {
    const [name, value] = random.pick(objects);
    return { query, variables: { ...variables, [name]: breakInput(random, value as Record<string, unknown>) } };
  }
  return { query, variables: breakInput(random, variables) };
}

// --- the run -------------------------------------------------------------------------------------------

let t: TestApp;
let wsUrl: string;
const callbackSecret = newCallbackSecret();
/** What the fuzzer sends over a socket at most, below the server's 64 KB (a larger message closes it, 1009). */
const MAX_SOCKET_MESSAGE = 60_000;
/** How long an operation over a socket may take to answer before it counts as a subscription that listens. */
const LISTENING_MS = 50;

/** An operation over a socket: its first answer as a status and a text (none within the wait: a subscription listening). */
async function overSocket(
  socket: FrameSocket,
  query: string,
  variables: unknown,
): Promise<{ status: number; answer: string }> {
  const frame = await socket.first(`{"query":${JSON.stringify(query)},"variables":${encode(variables)}}`, LISTENING_MS);
  if (!frame) return { status: 200, answer: "(no answer yet: listening)" };
  const answer = JSON.stringify(frame).slice(0, 600);
  if (frame.type === "closed") return { status: frame.code === 4500 || frame.code === 1011 ? 500 : 400, answer };
  const errors = frame.type === "error" ? frame.payload : frame.payload?.errors;
  return { status: serverError(200, { errors }) ? 500 : 200, answer };
}

/** Open sockets, each with the connection_init payload it was opened with; one that closed is opened again. */
const sockets: { params: Headers; socket: FrameSocket }[] = [];
/** How the sockets that closed were closed. */
const closes: { code: number; reason: string }[] = [];

function openedSocket(index: number): FrameSocket {
  const entry = sockets[index]!;
  if (entry.socket.closes.length) {
    closes.push(...entry.socket.closes);
    entry.socket = new FrameSocket(wsUrl, entry.params);
  }
  return entry.socket;
}

beforeAll(async () => {
  t = await startTestApp({
    RATE_LIMIT_PER_IP_PER_MINUTE: "1000000",
    RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "1000000",
    RATE_LIMIT_OTP_PER_IP_PER_MINUTE: "1000000",
    ALFREDPAY_CALLBACK_SECRET: callbackSecret,
  });
  const address = await t.server.listen({ port: 0, host: "127.0.0.1" });
  wsUrl = `${address.replace(/^http/, "ws")}/graphql`;
});
afterAll(async () => {
  for (const { socket } of sockets) socket.close();
  await t?.close();
});

/** Callers of every kind, and the ids of what they own, by the field names that name them. */
async function fixtures(): Promise<{ callers: Callers; pool: Pool }> {
  const pool: Pool = new Map();
  const add = (name: string, ...values: unknown[]) => pool.set(name, [...(pool.get(name) ?? []), ...values]);
  const user = await t.newProfile();
  const signedIn = await t.signIn();
  const { brTaxId } = await t.completeKyc(user.secret, ["BR"]);
  add("taxId", brTaxId, randomCpf());
  add("taxIdNumber", brTaxId);
  const manager = await t.newManager(["BR", "MX"]);
  const child = await t.newChild(manager);
  // What the fuzz may delete, revoke or sign out: never a caller's own credential or sign-in.
  const deletableChild = await t.newChild(manager);
  const revocable = await t.createCredential(user.session);

  const quoteIds = [];
  for (let index = 0; index < 3; index++)
    quoteIds.push(ok(await t.request("POST", "/v1/quotes", { headers: user.secret, body: BUY_QUOTE }), 201).id);
  const register = { quoteId: quoteIds[0], destinationAddress: EVM_ADDRESS };
  const rampId = ok(await t.request("POST", "/v1/ramp/register", { headers: user.secret, body: register }), 201).id;
  const webhook = { url: "https://93.184.215.14/hook", quoteId: quoteIds[1] };
  const webhookId = ok(await t.request("POST", "/v1/webhook", { headers: user.secret, body: webhook }), 201).id;
  const session = { rampType: "BUY", network: "polygon", inputAmount: "100", externalSessionId: "fuzz" };
  const sessionId = ok(
    await t.request("POST", "/v1/session/create", { headers: user.secret, body: session }),
    201,
  ).sessionId;
  ok(
    await t.request("POST", "/v1/domestic/createIndividualCustomer", { headers: user.secret, body: { country: "US" } }),
  );
  const account = goodBodies(pool).createDomesticFiatAccount!();
  const fiatAccountId = ok(
    await t.request("POST", "/v1/domestic/fiatAccounts", { headers: user.secret, body: account }),
  ).fiatAccountId;
  ok(
    await t.request("POST", "/v1/domestic/createIndividualCustomer", { headers: user.secret, body: { country: "MX" } }),
  );
  const kyc = goodBodies(pool).submitDomesticKycInformation!();
  const submissionId = ok(
    await t.request("POST", "/v1/domestic/submitKycInformation", { headers: user.secret, body: kyc }),
  ).submissionId;
  const invitationId = ok(
    await t.request("POST", "/v1/recipients/invitations", {
      headers: user.session,
      body: { email: "invitee@example.com", relationship: "friend" },
    }),
    201,
  ).id;
  const partnerId = ok(
    await t.request("POST", "/v1/admin/partners", { headers: t.operatorHeaders, body: { name: "Fuzz partner" } }),
    201,
  ).partner.id;
  const brazilUser = ok(await t.request("GET", "/v1/brl/getUser", { headers: user.secret }));
  const uploads = ok(
    await t.request("POST", "/v1/brl/getUploadUrls", {
      headers: user.secret,
      body: { taxId: brTaxId, documentType: "ID" },
    }),
  );

  add("quoteId", ...quoteIds);
  add("rampId", rampId);
  add("sessionId", sessionId);
  add("fiatAccountId", fiatAccountId);
  add("submissionId", submissionId);
  add("profileId", deletableChild.profileId, user.profileId, manager.profileId);
  add("credentialId", revocable.id);
  add("partnerId", partnerId);
  add("subAccountId", brazilUser.subAccountId ?? brazilUser.id);
  add("documentId", uploads.idUpload.id);
  add("uploadId", uploads.idUpload.id);
  add("uploadedDocumentId", uploads.idUpload.id);
  add("uploadedSelfieId", uploads.selfieUpload.id);
  add("id", rampId, quoteIds[2], webhookId, invitationId, deletableChild.profileId, sessionId);
  add("refreshToken", signedIn.refreshToken);
  add("targetId", partnerId);

  const bySchemes: Record<string, Headers[]> = {
    BearerAuth: [user.session, manager.session],
    SecretApiKey: [user.secret, manager.secret, child.own],
    PublicApiKey: [user.publicKey],
    OperatorToken: [t.operatorHeaders],
  };
  const all = [{}, ...Object.values(bySchemes).flat(), { authorization: "Bearer junk" }, { "x-api-key": "sk_test_x" }];
  const valid = Object.values(bySchemes).flat();
  return { callers: { bySchemes, all, valid, selectors: [child.profileId, deletableChild.profileId] }, pool };
}

/** What went wrong with an answer, if it was a 5xx: a GraphQL error with status 500 counts as one. */
function serverError(status: number, body: unknown): boolean {
  if (status >= 500) return true;
  const errors = (body as { errors?: { extensions?: { status?: number; code?: string } }[] } | undefined)?.errors;
  return (errors ?? []).some(
    (error) => (error.extensions?.status ?? 0) >= 500 || error.extensions?.code === "INTERNAL",
  );
}

describe(`generated requests (${testEngine()})`, () => {
  it(`${REQUESTS} requests over every operation and transport answer no 5xx (seed ${SEED})`, async () => {
    const { callers, pool } = await fixtures();
    const routes = routesOf(ok(await t.request("GET", "/v1/openapi.json")));
    const introspected = async (path: string, headers: Headers) =>
      buildClientSchema(
        ok(
          await t.request<{ data: IntrospectionQuery }>("POST", path, {
            headers,
            body: { query: getIntrospectionQuery() },
          }),
        ).data,
      );
    const fields = [
      ...rootFields(await introspected("/graphql", {}), false),
      ...rootFields(await introspected("/admin/graphql", t.operatorHeaders), true),
    ];
    const httpFields = fields.filter((root) => root.kind !== "subscription");
    const socketFields = fields.filter((root) => !root.admin);
    const good = goodBodies(pool);
    for (const params of [...callers.bySchemes.BearerAuth!, ...callers.bySchemes.SecretApiKey!, {}])
      sockets.push({ params, socket: new FrameSocket(wsUrl, params) });

    const random = new Random(SEED);
    const failures: Sent[] = [];
    const counts = { REST: 0, GraphQL: 0, WebSocket: 0 };
    const send = async (index: number): Promise<Sent> => {
      const draw = random.next();
      if (draw < REST_SHARE) {
        const route = random.pick(routes);
        const request = restRequest(random, route, callers, pool, good);
        signPartnerCallback(random, route, request);
        const description = `${request.method} ${request.url} ${JSON.stringify(request.headers)}${describeBody(request.rawBody)}`;
        const response = await t.server.inject({
          method: request.method as "GET",
          url: request.url,
          headers: request.headers,
          ...(request.rawBody !== undefined && { payload: request.rawBody }),
        });
        return {
          transport: "REST",
          target: route.operationId,
          description,
          status: response.statusCode,
          answer: response.body.slice(0, 600),
        };
      }
      if (draw < REST_SHARE + GRAPHQL_SHARE) {
        const root = random.pick(httpFields);
        const { query, variables } = graphqlRequest(random, root, pool);
        const headers =
          root.admin && random.chance(0.9)
            ? t.operatorHeaders
            : random.pick(random.chance(0.9) ? callers.valid : callers.all);
        const path = root.admin ? "/admin/graphql" : "/graphql";
        const useGet = root.kind === "query" && !root.admin && random.chance(0.2);
        const body = encode({ query, variables });
        const url = useGet
          ? `${path}?query=${percentEncoded(query)}&variables=${percentEncoded(encode(variables))}`
          : path;
        const description = `${useGet ? "GET" : "POST"} ${url} ${JSON.stringify(headers)}${useGet ? "" : describeBody(body)}`;
        const response = await t.server.inject({
          method: useGet ? "GET" : "POST",
          url,
          headers: {
            ...headers,
            ...(useGet ? { "apollo-require-preflight": "1" } : { "content-type": "application/json" }),
          },
          ...(!useGet && { payload: body }),
        });
        const parsed = /json/.test(String(response.headers["content-type"])) ? JSON.parse(response.body) : undefined;
        return {
          transport: "GraphQL",
          target: root.field.name,
          description,
          status: serverError(response.statusCode, parsed) ? 500 : response.statusCode,
          answer: response.body.slice(0, 600),
        };
      }
      const root = random.pick(socketFields);
      let { query, variables } = graphqlRequest(random, root, pool);
      // A message over the socket's limit (64 KB) closes it (1009): that limit has a test of its own.
      while (encode({ query, variables }).length > MAX_SOCKET_MESSAGE)
        ({ query, variables } = graphqlRequest(random, root, pool));
      const { status, answer } = await overSocket(openedSocket(random.int(sockets.length)), query, variables);
      return {
        transport: "WebSocket",
        target: root.field.name,
        description: `#${index} ${query} ${describeBody(encode(variables))}`,
        status,
        answer,
      };
    };

    // Each request is generated whole as it is taken (in order: the generator's sequence is the seed's), then
    // sent; CONCURRENCY of them are in flight at once.
    let taken = 0;
    const worker = async () => {
      while (taken < REQUESTS) {
        const sent = await send(taken++);
        counts[sent.transport]++;
        if (sent.status >= 500) failures.push(sent);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const closedOnError = [...closes, ...sockets.flatMap(({ socket }) => socket.closes)].filter(
      (close) => close.code === 4500 || close.code === 1011,
    );
    const byTarget: Record<string, number> = {};
    for (const { transport, target } of failures)
      byTarget[`${transport} ${target}`] = (byTarget[`${transport} ${target}`] ?? 0) + 1;
    const report = failures
      .slice(0, 15)
      .map((failure) => `${failure.transport} ${failure.description}\n  -> ${failure.status} ${failure.answer}`)
      .join("\n");
    expect(
      { serverErrors: failures.length, socketsClosedOnError: closedOnError.length },
      `seed ${SEED} (FUZZ_SEED=${SEED} replays it); ${JSON.stringify(counts)}; 5xx by operation: ${JSON.stringify(byTarget)}; first failures:\n${report}`,
    ).toEqual({ serverErrors: 0, socketsClosedOnError: 0 });
    // The signed partner callbacks got past their signature, some into storage: the fuzz reached their handlers.
    expect(await t.app.db.partnerCallback.count()).toBeGreaterThan(0);
  }, 300_000);
});
