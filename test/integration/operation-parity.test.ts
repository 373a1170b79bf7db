import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHQL_FACES } from "../../src/graphql/operation-field.js";
import * as credentials from "../../src/operations/credentials.js";
import type { AnyOperation } from "../../src/operations/operation.js";
import * as ramps from "../../src/operations/ramps.js";
import { REST_FACES } from "../../src/rest/operation-route.js";
import { startTestApp, type HttpResponse, type TestApp } from "../support/app.js";
import { ok } from "../support/kit.js";
import { rememberSecret } from "../support/secrets.js";

/**
 * Every operation served both over REST and as a GraphQL root field accepts and refuses the same inputs
 * with the same codes (issue 12, item 1). The inputs are a well-formed one (a success or a domain answer,
 * which both faces must agree on) and variants derived from the operation's schema: each field left out,
 * each field null, each field of the wrong JSON type, each string one character over its limit.
 * Each face gets its own freshly prepared caller and input, so one face's success never changes the other's.
 */

type Headers = Record<string, string>;
type Input = Record<string, unknown>;

interface Parity {
  /** A caller and a well-formed input, made afresh for every request. */
  prepare(): Promise<{ headers: Headers; input: Input }>;
  /** The GraphQL face: its document and variables for an input under the operation's names. */
  graphql(input: Input): { query: string; variables: Input };
}

/** Operations with both faces whose inputs differ by design, so that no input is the same on both. */
const DIFFERENT_INPUTS = new Map<AnyOperation, string>([
  [ramps.getRampHistory, "REST pages by limit and offset, GraphQL by first and an opaque cursor"],
]);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

async function session(): Promise<Headers> {
  return (await t.signIn()).headers;
}

async function manager(): Promise<Headers> {
  const signedIn = await t.signIn();
  ok(
    await t.request("PUT", `/v1/admin/managers/${signedIn.profileId}`, {
      headers: t.operatorHeaders,
      body: { allowedCorridors: ["BR", "MX"], isActive: true },
    }),
    201,
  );
  return signedIn.headers;
}

async function child(headers: Headers): Promise<string> {
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers,
    body: { externalSubjectId: randomUUID(), contactEmail: `${randomUUID()}@example.com`, customerType: "individual" },
  });
  return ok(created, 201).managedProfile.profileId;
}

async function quote(headers: Headers): Promise<string> {
  const body = {
    rampType: "BUY",
    from: "pix",
    to: "polygon",
    inputAmount: "100",
    inputCurrency: "BRL",
    outputCurrency: "USDC",
  };
  return ok(await t.request("POST", "/v1/quotes", { headers, body }), 201).id;
}

/** A caller with approved KYC and a ramp registered from a BUY quote, still startable. */
async function registeredRamp(): Promise<{ headers: Headers; rampId: string }> {
  const headers = await session();
  await t.completeKyc(headers);
  const body = { quoteId: await quote(headers), destinationAddress: "0x1111111111111111111111111111111111111111" };
  return { headers, rampId: ok(await t.request("POST", "/v1/ramp/register", { headers, body }), 201).id };
}

const mutation = (field: string, args: Record<string, string>, selection = "") => {
  const declared = Object.entries(args).map(([name, type]) => `$${name}: ${type}`);
  const passed = Object.keys(args).map((name) => `${name}: $${name}`);
  return `mutation(${declared.join(", ")}) { ${field}(${passed.join(", ")}) ${selection} }`;
};

const PARITY = new Map<AnyOperation, Parity>([
  [
    credentials.createApiCredential,
    {
      prepare: async () => ({ headers: await session(), input: { name: "parity" } }),
      graphql: (input) => ({
        query: mutation("createApiCredential", { input: "CreateApiCredentialInput" }, "{ secretKey }"),
        variables: { input },
      }),
    },
  ],
  [
    credentials.revokeApiCredential,
    {
      prepare: async () => {
        const headers = await session();
        return { headers, input: { credentialId: (await t.createCredential(headers)).id } };
      },
      graphql: ({ credentialId }) => ({
        query: mutation("revokeApiCredential", { id: "ID!" }),
        variables: { id: credentialId },
      }),
    },
  ],
  [
    credentials.createManagedProfileApiCredential,
    {
      prepare: async () => {
        const headers = await manager();
        return { headers, input: { profileId: await child(headers), name: "parity" } };
      },
      graphql: ({ profileId, ...input }) => ({
        query: mutation(
          "createManagedProfileCredential",
          { profileId: "ID!", input: "CreateApiCredentialInput" },
          "{ secretKey }",
        ),
        variables: { profileId, input },
      }),
    },
  ],
  [
    credentials.revokeManagedProfileApiCredential,
    {
      prepare: async () => {
        const headers = await manager();
        const profileId = await child(headers);
        const issued = await t.request("POST", `/v1/managed-profiles/${profileId}/api-credentials`, { headers });
        rememberSecret(ok(issued, 201).secretKey);
        return { headers, input: { profileId, credentialId: issued.body.id } };
      },
      graphql: (input) => ({
        query: mutation("revokeManagedProfileCredential", { profileId: "ID!", credentialId: "ID!" }),
        variables: input,
      }),
    },
  ],
  [
    credentials.createPartnerApiCredential,
    {
      prepare: async () => {
        const partner = await t.request("POST", "/v1/admin/partners", {
          headers: t.operatorHeaders,
          body: { name: "Parity partner" },
        });
        const { profileId } = await t.signIn();
        return {
          headers: t.operatorHeaders,
          input: { partnerId: ok(partner, 201).partner.id, profileId, name: "parity" },
        };
      },
      graphql: ({ partnerId, ...input }) => ({
        query: mutation(
          "issuePartnerCredential",
          { partnerId: "ID!", input: "PartnerCredentialInput!" },
          "{ secretKey }",
        ),
        variables: { partnerId, input },
      }),
    },
  ],
  [
    ramps.registerRamp,
    {
      // KYC is not approved: a well-formed registration gets as far as KYC_NOT_APPROVED, consuming nothing.
      prepare: async () => {
        const headers = await session();
        const input = {
          quoteId: await quote(headers),
          destinationAddress: "0x1111111111111111111111111111111111111111",
        };
        return { headers, input };
      },
      graphql: (input) => ({
        query: mutation("registerRamp", { input: "RegisterRampInput!" }, "{ id }"),
        variables: { input },
      }),
    },
  ],
  [
    ramps.updateRamp,
    {
      prepare: async () => {
        const { headers, rampId } = await registeredRamp();
        return {
          headers,
          input: { rampId, presignedTxs: [{ tx: "0x00" }], additionalData: { squidRouterSwapHash: "0x01" } },
        };
      },
      graphql: (input) => ({
        query: mutation("updateRamp", { input: "UpdateRampInput!" }, "{ id }"),
        variables: { input },
      }),
    },
  ],
  [
    ramps.startRamp,
    {
      prepare: async () => {
        const { headers, rampId } = await registeredRamp();
        return { headers, input: { rampId } };
      },
      graphql: ({ rampId }) => ({ query: mutation("startRamp", { rampId: "ID!" }, "{ id }"), variables: { rampId } }),
    },
  ],
  [
    ramps.getRampStatus,
    {
      prepare: async () => {
        const { headers, rampId } = await registeredRamp();
        return { headers, input: { id: rampId } };
      },
      graphql: ({ id }) => ({ query: "query($id: ID!) { ramp(id: $id) { id } }", variables: { id } }),
    },
  ],
]);

/** The schema under optional, nullable, default and transform wrappers: what a field accepts on the wire. */
function wireSchema(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod
    .def;
  if (def.innerType) return wireSchema(def.innerType);
  if (def.type === "pipe" && def.in) return wireSchema(def.in);
  return schema;
}

const WRONG_TYPE: Record<string, unknown> = {
  string: 12345,
  enum: "NOT_A_VALUE",
  number: "not a number",
  boolean: "yes",
  array: "not a list",
  object: "not an object",
  record: "not an object",
};

/** The variants of a well-formed input: each names what it changed. */
function variants(operation: AnyOperation, input: Input, pathFields: string[]): [string, Input][] {
  const cases: [string, Input][] = [["well-formed", input]];
  for (const [field, schema] of Object.entries(operation.input.shape as Record<string, z.ZodType>)) {
    // Path parameters are strings by construction, and both faces require them.
    if (pathFields.includes(field)) continue;
    const wire = wireSchema(schema);
    const type = (wire as unknown as { _zod: { def: { type: string } } })._zod.def.type;
    const { [field]: _left, ...rest } = input;
    cases.push([`${field} left out`, rest]);
    cases.push([`${field} null`, { ...input, [field]: null }]);
    if (type in WRONG_TYPE) cases.push([`${field} of the wrong type`, { ...input, [field]: WRONG_TYPE[type] }]);
    const maxLength = (wire as { maxLength?: number | null }).maxLength;
    if (typeof maxLength === "number")
      cases.push([`${field} too long`, { ...input, [field]: "x".repeat(maxLength + 1) }]);
  }
  return cases;
}

/** What an answer says: success, or the code of the error (the first one GraphQL reports). */
function outcome(response: HttpResponse, face: "REST" | "GraphQL"): string {
  if (face === "REST") return response.status < 300 ? "success" : `${response.status} ${response.body?.error?.code}`;
  const error = response.body.errors?.[0];
  return error ? `${error.extensions.status} ${error.extensions.code}` : "success";
}

function restRequest(face: { method: string; url: string }, input: Input) {
  const pathFields = [...face.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);
  const url = face.url.replace(/:([A-Za-z]+)/g, (_all, name: string) => encodeURIComponent(String(input[name])));
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !pathFields.includes(key)));
  if (face.method === "GET" || face.method === "DELETE") {
    const query = new URLSearchParams(
      Object.entries(rest).map(([key, value]): [string, string] => [key, String(value)]),
    );
    return { url: query.size > 0 ? `${url}?${query}` : url, body: undefined, pathFields };
  }
  return { url, body: rest, pathFields };
}

describe("operations with a REST and a GraphQL face", () => {
  it("are all in this test, or listed with the reason their inputs differ", () => {
    const both = [...REST_FACES.keys()].filter((operation) => GRAPHQL_FACES.has(operation));
    expect(both.length).toBeGreaterThanOrEqual(PARITY.size);
    const missing = both.filter((operation) => !PARITY.has(operation) && !DIFFERENT_INPUTS.has(operation));
    expect(missing.map((operation) => operation.name)).toEqual([]);
    for (const operation of PARITY.keys()) {
      expect(REST_FACES.has(operation) && GRAPHQL_FACES.has(operation), operation.name).toBe(true);
    }
  });

  for (const [operation, parity] of PARITY) {
    it(`${operation.name}: the same answer on both faces for every input`, async () => {
      const face = REST_FACES.get(operation)!;
      const { input: sample } = await parity.prepare();
      const { pathFields } = restRequest(face, sample);
      const cases = variants(operation, sample, pathFields);
      const differences: string[] = [];
      const outcomes = new Set<string>();
      for (const [name] of cases) {
        const answer = async (via: "REST" | "GraphQL") => {
          const { headers, input: fresh } = await parity.prepare();
          const input = variants(operation, fresh, pathFields).find(([label]) => label === name)![1];
          if (via === "REST") {
            const { url, body } = restRequest(face, input);
            return outcome(await t.request(face.method, url, { headers, body }), via);
          }
          const { query, variables } = parity.graphql(input);
          return outcome(await t.graphql(query, variables, headers), via);
        };
        const [rest, graphql] = [await answer("REST"), await answer("GraphQL")];
        outcomes.add(rest);
        if (rest !== graphql) differences.push(`${name}: REST ${rest}, GraphQL ${graphql}`);
      }
      expect(differences).toEqual([]);
      // Where the input has fields beyond the path, the variants reached validation.
      if (cases.length > 1) expect([...outcomes]).toContain("400 VALIDATION_FAILED");
    });
  }
});
