import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTNER_SIGNATURE_SCHEMES } from "../../src/rest/http.js";
import { MAX_INPUT_DEPTH } from "../../src/validation.js";
import { startTestApp, type SignedInProfile, type TestApp } from "../support/app.js";
import { testEngine } from "../support/database.js";
import { expectError, expectGraphQLError, ok } from "../support/kit.js";
import { FrameSocket } from "../support/ws-client.js";

/**
 * JSON nested deeper than MAX_INPUT_DEPTH is refused with 400 VALIDATION_FAILED before any handler reads it, on
 * every transport (issue 40, item 1): a body nested 5,000 deep answered 500 on every body-taking route, the
 * NUL-character check having exhausted the stack.
 */
let t: TestApp;
let wsUrl: string;
let caller: SignedInProfile;
const sockets: FrameSocket[] = [];

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
  const address = await t.server.listen({ port: 0, host: "127.0.0.1" });
  wsUrl = `${address.replace(/^http/, "ws")}/graphql`;
  caller = await t.newProfile();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

/** JSON text of arrays nested `depth` deep (the outermost counts as one level). */
const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
/** JSON text of objects nested `depth` deep. */
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

const DEPTH_MESSAGE = `nests deeper than ${MAX_INPUT_DEPTH} levels`;
const CREATE_CREDENTIAL =
  "mutation ($input: CreateApiCredentialInput) { createApiCredential(input: $input) { credential { secretKey } } }";
const UPDATE_RAMP = "mutation ($input: UpdateRampInput!) { updateRamp(input: $input) { ramp { id } } }";

interface Route {
  method: string;
  path: string;
  schemes: string[];
}

const isPartnerSignature = (scheme: string) => (Object.values(PARTNER_SIGNATURE_SCHEMES) as string[]).includes(scheme);

describe(`deeply nested input (${testEngine()})`, () => {
  it("every REST route taking a JSON body refuses a field nested 5,000 deep with 400, naming the field", async () => {
    const manager = await t.newManager();
    const document = ok(await t.request("GET", "/v1/openapi.json"));
    const routes: Route[] = Object.entries(
      document.paths as Record<
        string,
        Record<string, { security?: object[]; requestBody?: { content: Record<string, unknown> } }>
      >,
    ).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.requestBody?.content["application/json"])
        // Partner callbacks are verified over their bytes first: an unsigned body is refused 401 before it is read.
        // partner-callbacks.test.ts sends them signed deep bodies.
        .filter(([, operation]) => !operation.security?.some((scheme) => Object.keys(scheme).some(isPartnerSignature)))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          path: path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000"),
          schemes: (operation.security ?? []).flatMap(Object.keys),
        })),
    );
    expect(routes.length).toBeGreaterThan(50);
    const headersFor = ({ schemes }: Route) =>
      schemes.includes("OperatorToken")
        ? t.operatorHeaders
        : schemes.includes("SecretApiKey")
          ? manager.secret
          : schemes.includes("BearerAuth")
            ? manager.session
            : {};
    const refusals = await Promise.all(
      routes.map(async (route) => {
        const rawBody = `{"deep":${nestedArrays(5000)}}`;
        const response = await t.request(route.method, route.path, { headers: headersFor(route), rawBody });
        return { route: `${route.method} ${route.path}`, status: response.status, error: response.body?.error };
      }),
    );
    for (const { route, status, error } of refusals) {
      expect({ route, status, code: error?.code, details: error?.details }).toEqual({
        route,
        status: 400,
        code: "VALIDATION_FAILED",
        details: [{ field: "deep", message: DEPTH_MESSAGE }],
      });
    }
  });

  it(`takes ${MAX_INPUT_DEPTH} levels to its schema and refuses one more, objects and arrays alike`, async () => {
    const send = (rawBody: string) => t.request("POST", "/v1/api-credentials", { headers: caller.session, rawBody });
    // The body is the first level: its `name` holds the rest.
    for (const nested of [nestedArrays, nestedObjects]) {
      const atTheBound = await send(`{"name":${nested(MAX_INPUT_DEPTH - 1)}}`);
      expectError(atTheBound, 400, "VALIDATION_FAILED", "name");
      expect(atTheBound.body.error.details).not.toContainEqual(expect.objectContaining({ message: DEPTH_MESSAGE }));
      const beyond = await send(`{"name":${nested(MAX_INPUT_DEPTH)}}`);
      expect(beyond.body.error.details).toEqual([{ field: "name", message: DEPTH_MESSAGE }]);
    }
    // A body that is itself too deep is named as the body; nothing was created.
    expect((await send(nestedArrays(10_000))).body.error.details).toEqual([{ field: "0", message: DEPTH_MESSAGE }]);
    expect(ok(await t.request("GET", "/v1/api-credentials", { headers: caller.session })).credentials).toHaveLength(1);
  });

  it("GraphQL over HTTP refuses deep variables before running anything, in a body or a query string", async () => {
    const deepInput = `{"rampId":"00000000-0000-4000-8000-000000000000","presignedTxs":[${nestedObjects(5000)}]}`;
    const posted = await t.request("POST", "/graphql", {
      headers: caller.secret,
      rawBody: `{"query":${JSON.stringify(UPDATE_RAMP)},"variables":{"input":${deepInput}}}`,
    });
    expectGraphQLError(posted, 400, "VALIDATION_FAILED");
    expect(posted.body.errors[0].extensions.details).toEqual([{ field: "input", message: DEPTH_MESSAGE }]);

    // A typed input too: the refusal comes before graphql-js coerces the variables.
    const typed = await t.request("POST", "/graphql", {
      headers: caller.session,
      rawBody: `{"query":${JSON.stringify(CREATE_CREDENTIAL)},"variables":{"input":{"name":${nestedArrays(5000)}}}}`,
    });
    expectGraphQLError(typed, 400, "VALIDATION_FAILED");
    expect(typed.body.errors[0].extensions.details).toEqual([{ field: "input", message: DEPTH_MESSAGE }]);

    const query = encodeURIComponent("query ($id: ID!) { ramp(id: $id) { id } }");
    const variables = encodeURIComponent(`{"id":${nestedArrays(5000)}}`);
    const viaGet = await t.request("GET", `/graphql?query=${query}&variables=${variables}`, {
      headers: { ...caller.session, "apollo-require-preflight": "1" },
    });
    expectGraphQLError(viaGet, 400, "VALIDATION_FAILED");
    expect(viaGet.body.errors[0].extensions.details).toEqual([{ field: "id", message: DEPTH_MESSAGE }]);

    const operator = await t.request("POST", "/admin/graphql", {
      headers: t.operatorHeaders,
      rawBody: `{"query":"mutation ($name: String!) { createPartner(name: $name) { partner { id } } }","variables":{"name":${nestedObjects(5000)}}}`,
    });
    expectGraphQLError(operator, 400, "VALIDATION_FAILED");
  });

  it("GraphQL over WebSocket refuses deep variables of a subscription, and the connection goes on", async () => {
    const socket = new FrameSocket(wsUrl, caller.secret);
    sockets.push(socket);
    const deepInput = `{"rampId":"00000000-0000-4000-8000-000000000000","presignedTxs":[${nestedObjects(5000)}]}`;
    const refused = await socket.first(`{"query":${JSON.stringify(UPDATE_RAMP)},"variables":{"input":${deepInput}}}`);
    expect(refused).toMatchObject({
      type: "error",
      payload: [
        {
          extensions: { code: "VALIDATION_FAILED", status: 400, details: [{ field: "input", message: DEPTH_MESSAGE }] },
        },
      ],
    });

    const progress = "subscription ($rampId: ID!) { rampProgress(rampId: $rampId) { id } }";
    const subscription = await socket.first(
      `{"query":${JSON.stringify(progress)},"variables":{"rampId":${nestedArrays(5000)}}}`,
    );
    expect(subscription).toMatchObject({
      type: "error",
      payload: [{ extensions: { code: "VALIDATION_FAILED", details: [{ field: "rampId", message: DEPTH_MESSAGE }] } }],
    });
    expect(socket.closes).toEqual([]);
  });
});
