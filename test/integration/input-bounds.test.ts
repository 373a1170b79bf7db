import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHQL_FACES } from "../../src/graphql/operation-field.js";
import type { AnyOperation } from "../../src/operations/operation.js";
import { jsonSchema } from "../../src/rest/http.js";
import { REST_FACES } from "../../src/rest/operation-route.js";
import { startTestApp, type SignedInProfile, type TestApp } from "../support/app.js";
import { testEngine } from "../support/database.js";
import { EVM_ADDRESS, expectError, expectGraphQLError, ok } from "../support/kit.js";
import { randomCpf } from "../support/kyc.js";

/**
 * Every string an operation takes is bounded, and one that names a known kind of value (an id, a wallet address,
 * an email, a country...) has its format checked: 400 VALIDATION_FAILED naming the field otherwise (issue 40,
 * item 2). A BR subaccount took a 100 KB sessionId, and a wallet's ramp history took `-1` and an address
 * ending in a newline.
 */
let t: TestApp;
let caller: SignedInProfile;
beforeAll(async () => {
  t = await startTestApp();
  caller = await t.newProfile();
});
afterAll(() => t?.close());

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  maxLength?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
}

/** The paths of a JSON Schema's strings that take any text of any length (no enum, no constant, no bound). */
function unboundedStrings(schema: Schema | undefined, path: string): string[] {
  if (!schema || typeof schema !== "object") return [];
  const nested = [
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((inner) =>
      unboundedStrings(inner, path),
    ),
    ...Object.entries(schema.properties ?? {}).flatMap(([key, inner]) => unboundedStrings(inner, `${path}.${key}`)),
    ...unboundedStrings(schema.items, `${path}[]`),
  ];
  const isString = schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string"));
  const bounded =
    schema.enum !== undefined ||
    schema.const !== undefined ||
    schema.maxLength !== undefined ||
    schema.format === "binary";
  return isString && !bounded ? [path, ...nested] : nested;
}

describe(`bounded inputs (${testEngine()})`, () => {
  it("every string field of every operation's input has a maximum length", () => {
    const operations = new Set<AnyOperation>([...REST_FACES.keys(), ...GRAPHQL_FACES.keys()]);
    expect(operations.size).toBeGreaterThan(100);
    const unbounded = [...operations].flatMap((operation) =>
      unboundedStrings(jsonSchema(operation.input, "input") as Schema, operation.name),
    );
    expect(unbounded).toEqual([]);
  });

  it("the served document shows the bounds on every parameter and body field of every operation", async () => {
    const served = new Set([...REST_FACES.keys()].map((operation) => operation.name));
    const document = ok(await t.request("GET", "/v1/openapi.json"));
    const unbounded: string[] = [];
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!served.has(operation.operationId)) continue;
        const where = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? [])
          unbounded.push(...unboundedStrings(parameter.schema, `${where} ${parameter.in}:${parameter.name}`));
        for (const [type, content] of Object.entries(operation.requestBody?.content ?? {}))
          unbounded.push(...unboundedStrings((content as { schema: Schema }).schema, `${where} ${type}`));
      }
    }
    expect(served.size).toBeGreaterThan(150);
    expect(unbounded).toEqual([]);
  });

  it("createSubaccount refuses a 100 KB sessionId, and ids, dates and tax ids that are none, changing nothing", async () => {
    const body = { accountType: "INDIVIDUAL", name: "Ana Souza", taxId: randomCpf() };
    const create = (extra: Record<string, unknown>) =>
      t.request("POST", "/v1/brl/createSubaccount", { headers: caller.secret, body: { ...body, ...extra } });
    for (const [extra, field] of [
      [{ sessionId: "s".repeat(100_000) }, "sessionId"],
      [{ sessionId: "not-a-session" }, "sessionId"],
      [{ quoteId: "q".repeat(37) }, "quoteId"],
      [{ startDate: "yesterday" }, "startDate"],
      [{ cnpj: "12345678000100" }, "cnpj"],
      [{ taxId: "1".repeat(1000) }, "taxId"],
    ] as const) {
      const refused = await create(extra);
      expectError(refused, 400, "VALIDATION_FAILED", field);
      // A 100 KB value is not repeated back.
      expect(JSON.stringify(refused.body).length).toBeLessThan(1000);
    }
    expectError(await t.request("GET", "/v1/brl/getUser", { headers: caller.secret }), 404, "NOT_FOUND");
    // A well-formed one is still taken.
    ok(await create({ sessionId: "8b7e7a52-3c53-4b7e-9a36-0d6c2d8f9a11" }));
  });

  it("a wallet's ramp history takes only a wallet address as written: not -1, not one ending in a newline", async () => {
    const history = (address: string, headers = caller.secret) =>
      t.request("GET", `/v1/ramp/history/${encodeURIComponent(address)}`, { headers });
    for (const address of ["-1", `${EVM_ADDRESS}\n`, ` ${EVM_ADDRESS}`, "0x1234", "x".repeat(90)])
      expectError(await history(address), 400, "VALIDATION_FAILED", "walletAddress");
    expectError(
      await t.request("GET", `/v1/ramp/history?walletAddress=-1`, { headers: caller.secret }),
      400,
      "VALIDATION_FAILED",
      "walletAddress",
    );
    // EVM addresses in any case, and SS58 addresses, are addresses.
    for (const address of [EVM_ADDRESS, EVM_ADDRESS.toUpperCase().replace("0X", "0x"), SS58])
      expect(ok(await history(address)).transactions).toEqual([]);

    const graphql = await t.graphql(
      "query ($wallet: String) { ramps(walletAddress: $wallet) { totalCount } }",
      { wallet: `${EVM_ADDRESS}\n` },
      caller.session,
    );
    expectGraphQLError(graphql, 400, "VALIDATION_FAILED");
    expect(graphql.body.errors[0].extensions.details).toEqual([
      { field: "walletAddress", message: "must be a wallet address (0x and 40 hex digits, or SS58)" },
    ]);
  });

  it("ids are UUIDs: a malformed one is refused as such, over REST and GraphQL alike", async () => {
    for (const id of ["not-a-uuid", "1", `${"0".repeat(36)}0`])
      expectError(await t.request("GET", `/v1/ramp/${id}`, { headers: caller.secret }), 400, "VALIDATION_FAILED", "id");
    const graphql = await t.graphql("query ($id: ID!) { quote(id: $id) { id } }", { id: "not-a-uuid" }, caller.secret);
    expectGraphQLError(graphql, 400, "VALIDATION_FAILED");
    expect(graphql.body.errors[0].extensions.details).toEqual([{ field: "id", message: "must be a UUID" }]);
  });

  it("country codes, emails and addresses in KYC data are checked for their form", async () => {
    const owner = await t.newProfile();
    const taxId = randomCpf();
    const { subAccountId } = ok(
      await t.request("POST", "/v1/brl/createSubaccount", {
        headers: owner.secret,
        body: { accountType: "INDIVIDUAL", name: "Ana Souza", taxId },
      }),
    );
    const refused = await t.request("POST", "/v1/brl/newKyc", {
      headers: owner.secret,
      body: {
        subAccountId,
        taxIdNumber: taxId,
        fullName: "Ana Souza",
        dateOfBirth: "1990-04-12",
        email: `${"a".repeat(300)}@example.com`,
        countryOfTaxId: "Brazil",
        streetAddress: "Rua Augusta 100",
        city: "São Paulo",
        state: "SP",
        zipCode: "01304-000",
        country: "BRA",
        uploadedDocumentId: "document",
        uploadedSelfieId: "selfie",
      },
    });
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual([
      "country",
      "countryOfTaxId",
      "email",
      "uploadedDocumentId",
      "uploadedSelfieId",
    ]);
  });
});

/** A well-formed SS58 address (AssetHub's). */
const SS58 = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
