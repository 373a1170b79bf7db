import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { BUY_QUOTE, expectGraphQLError } from "../support/kit.js";
import { openSocket, subscribe, type WsSocket } from "../support/ws-client.js";

/*
 * Which operation of a document runs, and the checks it passes first, are decided once, by the operation the
 * server resolved: a name that matches none runs nothing, over HTTP and WebSocket alike; and page sizes are
 * counted from the variables as coerced, defaults included.
 */

let t: TestApp;
let wsUrl: string;
let secret: Record<string, string>;
const sockets: WsSocket[] = [];

beforeAll(async () => {
  // A cost limit high enough to leave the pages' count to decide.
  t = await startTestApp({ GRAPHQL_MAX_LIST_ITEMS: "2000", GRAPHQL_MAX_COST: "1000000" });
  const address = await t.server.listen({ port: 0, host: "127.0.0.1" });
  wsUrl = `${address.replace(/^http/, "ws")}/graphql`;
  const session = await t.signIn();
  secret = { "x-api-key": (await t.createCredential(session.headers)).secretKey };
});
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await t?.close();
});

const CREATE_QUOTE = `mutation M { createQuote(input: {
  rampType: BUY, from: "pix", to: "polygon", inputAmount: "${BUY_QUOTE.inputAmount}", inputCurrency: "BRL", outputCurrency: "USDC"
}) { quote { id } } }`;
const NESTED_PAGES = "query Pages { webhooks(first: 100) { edges { node { deliveries(first: 100) { count } } } } }";

const getGraphQL = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request("GET", `/graphql?${new URLSearchParams(params)}`, {
    headers: { "apollo-require-preflight": "true", ...headers },
  });

/** The GraphQL-over-HTTP request error for a name that matches no operation: 400, nothing run. */
function expectUnknownOperation(response: { status: number; body: any }) {
  expectGraphQLError(response, 400, "VALIDATION_FAILED");
  expect(response.body.data).toBeUndefined();
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0].message).toBe('Unknown operation named "nope".');
}

describe(`an operationName that names no operation of the document (${testEngine()})`, () => {
  it("runs nothing: a mutation sent by GET is not run, and answers the request error, not 405 or a result", async () => {
    const quotes = await t.app.db.quote.count();
    expect((await getGraphQL({ query: CREATE_QUOTE }, secret)).status).toBe(405);
    expectUnknownOperation(await getGraphQL({ query: CREATE_QUOTE, operationName: "nope" }, secret));
    expectUnknownOperation(
      await t.request("POST", "/graphql", { headers: secret, body: { query: CREATE_QUOTE, operationName: "nope" } }),
    );
    expect(await t.app.db.quote.count()).toBe(quotes);
  });

  it("is refused before any check that would have refused the operation is skipped", async () => {
    const statements = t.app.statements.count;
    // The pages' count: 10,100 items, over 2,000, refused with its own name and with a wrong one alike.
    const counted = await t.request("POST", "/graphql", { headers: secret, body: { query: NESTED_PAGES } });
    expect(expectGraphQLErrorMessage(counted)).toContain("10100 items");
    expectUnknownOperation(
      await t.request("POST", "/graphql", {
        headers: secret,
        body: { query: NESTED_PAGES, operationName: "nope" },
      }),
    );
    // A subscription over HTTP, and an anonymous caller's `me`: no internals, no resolver run.
    const subscription = 'subscription S { rampEvents(quoteId: "00000000-0000-4000-8000-000000000000") { eventId } }';
    expectUnknownOperation(
      await t.request("POST", "/graphql", { headers: secret, body: { query: subscription, operationName: "nope" } }),
    );
    expectUnknownOperation(
      await t.request("POST", "/graphql", { body: { query: "query Me { me { id } }", operationName: "nope" } }),
    );
    expect(t.app.statements.count).toBe(statements);
    // Named rightly, each gets its own answer.
    expectGraphQLError(
      await t.request("POST", "/graphql", { body: { query: "query Me { me { id } }", operationName: "Me" } }),
      401,
      "AUTHENTICATION_REQUIRED",
    );
  });

  it("over WebSocket too: an error for the operation, and nothing run", async () => {
    const quotes = await t.app.db.quote.count();
    const socket = openSocket(wsUrl, { "X-API-Key": secret["x-api-key"] });
    sockets.push(socket);
    // ws-client's subscribe sends no operationName: the client is asked directly.
    const named = await new Promise<unknown[]>((resolve) => {
      const failures: unknown[] = [];
      socket.client.subscribe(
        { query: CREATE_QUOTE, operationName: "nope" },
        { next: () => undefined, error: (error) => resolve([...failures, error]), complete: () => resolve(failures) },
      );
    });
    expect(named).toHaveLength(1);
    expect((named[0] as { message: string }[])[0]!.message).toBe('Unknown operation named "nope".');
    expect(await t.app.db.quote.count()).toBe(quotes);
  });
});

function expectGraphQLErrorMessage(response: { status: number; body: any }): string {
  expectGraphQLError(response, 400, "VALIDATION_FAILED");
  return response.body.errors[0].message;
}

describe(`page sizes from variables (${testEngine()})`, () => {
  const DEFAULTED =
    "query ($n: Int! = 100) { webhooks(first: $n) { edges { node { deliveries(first: $n) { count } } } } }";

  it("a variable's default counts as if it were sent, over HTTP", async () => {
    for (const variables of [undefined, { n: 100 }]) {
      const refused = await t.graphql(DEFAULTED, variables, secret);
      expect(expectGraphQLErrorMessage(refused)).toContain("10100 items");
    }
    expect((await t.graphql(DEFAULTED, { n: 20 }, secret)).body).toEqual({ data: { webhooks: { edges: [] } } });
  });

  it("and over WebSocket", async () => {
    const socket = openSocket(wsUrl, { "X-API-Key": secret["x-api-key"] });
    sockets.push(socket);
    const refused = subscribe(socket.client, DEFAULTED);
    await refused.until(() => refused.failures.length > 0 || refused.completed, "an answer");
    expect(refused.errorCode()).toBe("VALIDATION_FAILED");
    const answered = subscribe(socket.client, DEFAULTED, { n: 20 });
    await answered.until(() => answered.completed, "an answer");
    expect(answered.results).toEqual([{ data: { webhooks: { edges: [] } } }]);
  });
});
