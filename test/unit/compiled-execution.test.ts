import { ApolloServer } from "@apollo/server";
import { buildSchema, execute as graphqlJsExecute, GraphQLError, parse, validate, type DocumentNode } from "graphql";
import * as jit from "graphql-jit";
import { GraphQLJSONObject } from "graphql-scalars";
import { describe, expect, it, vi } from "vitest";
import {
  apolloExecution,
  compiledExecution,
  compilesExactly,
  MAX_COMPILED_DOCUMENTS,
  refuseCompilerMarkers,
} from "../../src/graphql/compiled-execution.js";

vi.mock("graphql-jit", { spy: true });

const schema = buildSchema(`
  enum Order { NEWEST_FIRST OLDEST_FIRST }
  scalar JSONObject
  type Query {
    echo(order: Order!, limit: Int): String
    greet(name: String): String
    failing: String
    objects(items: [JSONObject!]!, one: JSONObject): String
  }
`);
Object.assign(schema.getType("JSONObject")!, {
  parseLiteral: GraphQLJSONObject.parseLiteral,
  parseValue: GraphQLJSONObject.parseValue,
  serialize: GraphQLJSONObject.serialize,
});
const query = schema.getQueryType()!.getFields();
query.echo!.resolve = (_root, { order, limit }: { order: string; limit?: number }) => `${order} ${limit ?? "-"}`;
query.greet!.resolve = (_root, { name }: { name: string }) => `hello ${name}`;
query.objects!.resolve = (_root, args) => JSON.stringify(args);
class Refusal extends Error {}
query.failing!.resolve = () => {
  throw new Refusal("refused");
};

const execute = compiledExecution(schema);
const run = (document: DocumentNode, variableValues?: Record<string, unknown>) =>
  execute({ schema, document, variableValues, contextValue: {} });

describe("compiled execution", () => {
  it("compiles an operation once and runs it again from the compiled code", async () => {
    vi.mocked(jit.compileQuery).mockClear();
    const document = parse("query ($limit: Int) { echo(order: OLDEST_FIRST, limit: $limit) }");
    expect(await run(document, { limit: 1 })).toEqual({ data: { echo: "OLDEST_FIRST 1" } });
    expect(await run(document, { limit: 2 })).toEqual({ data: { echo: "OLDEST_FIRST 2" } });
    expect(jit.compileQuery).toHaveBeenCalledTimes(1);
    await run(parse("{ echo(order: NEWEST_FIRST) }"));
    expect(jit.compileQuery).toHaveBeenCalledTimes(2);
  });

  it("keeps the operations of the most recently run documents only", async () => {
    const documents = Array.from({ length: MAX_COMPILED_DOCUMENTS + 1 }, (_, index) =>
      parse(`{ echo(order: NEWEST_FIRST, limit: ${index}) }`),
    );
    for (const document of documents) await run(document);
    vi.mocked(jit.compileQuery).mockClear();
    await run(documents.at(-1)!);
    expect(jit.compileQuery).not.toHaveBeenCalled();
    await run(documents[0]!);
    expect(jit.compileQuery).toHaveBeenCalledTimes(1);
  });

  // graphql-jit writes literal arguments into its code and turns `"<marker><rest>"` into `new Date(<rest>)`.
  it("never compiles a string holding graphql-jit's markers, which would run as code", async () => {
    const probe = "compiledExecutionRanInjectedCode";
    const document = parse(
      `{ greet(name: "__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d(globalThis.${probe} = true)") }`,
    );
    const refusal = "A string or name in the document holds a sequence this server reserves.";
    expect(validate(schema, document, [refuseCompilerMarkers]).map(({ message }) => message)).toEqual([refusal]);
    vi.mocked(jit.compileQuery).mockClear();
    const { data, errors } = await run(document);
    expect(data).toBeUndefined();
    expect(errors!.map(({ message }) => message)).toEqual([refusal]);
    expect(jit.compileQuery).not.toHaveBeenCalled();
    expect(probe in globalThis).toBe(false);
    const alias = parse('{ __MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8: greet(name: "a") }');
    expect(validate(schema, alias, [refuseCompilerMarkers]).map(({ message }) => message)).toEqual([refusal]);
    expect(validate(schema, parse('{ greet(name: "__MAGIC") }'), [refuseCompilerMarkers])).toEqual([]);
    expect(await run(parse('{ greet(name: "__MAGIC") }'))).toEqual({ data: { greet: "hello __MAGIC" } });
  });

  it("gives a non-null variable left out its declared default, as graphql-js does", async () => {
    const document = parse("query ($order: Order! = NEWEST_FIRST) { echo(order: $order) }");
    expect(await run(document)).toEqual({ data: { echo: "NEWEST_FIRST -" } });
    expect(await run(document, { order: "OLDEST_FIRST" })).toEqual({ data: { echo: "OLDEST_FIRST -" } });
  });

  it("refuses a bad variable with graphql-js's error, on its variable's definition (Apollo answers it 400)", async () => {
    const { errors } = await run(parse("query ($limit: Int) { echo(order: NEWEST_FIRST, limit: $limit) }"), {
      limit: "many",
    });
    expect(errors).toHaveLength(1);
    expect(errors![0]!.message).toBe(
      'Variable "$limit" got invalid value "many"; Int cannot represent non-integer value: "many"',
    );
    expect(errors![0]!.nodes?.[0]?.kind).toBe("VariableDefinition");
  });

  // graphql-jit reads a custom scalar's literal once, as it compiles, with no variables: they would vanish.
  it("runs a document with a variable inside a custom scalar's literal on graphql-js, with the variable's value", async () => {
    const inside = parse("query ($sig: String) { objects(items: [{signature: $sig, n: 1}], one: {a: {b: $sig}}) }");
    expect(compilesExactly(schema, inside)).toBe(false);
    vi.mocked(jit.compileQuery).mockClear();
    const expected = { items: [{ signature: "S", n: 1 }], one: { a: { b: "S" } } };
    expect(await run(inside, { sig: "S" })).toEqual({ data: { objects: JSON.stringify(expected) } });
    expect(await run(inside, { sig: "S" })).toEqual(
      await graphqlJsExecute({ schema, document: inside, variableValues: { sig: "S" } }),
    );
    expect(jit.compileQuery).not.toHaveBeenCalled();
    // Variables beside such literals, and literals without variables, compile as before.
    for (const exact of [
      "query ($items: [JSONObject!]!) { objects(items: $items) }",
      '{ objects(items: [{signature: "S", n: 1}]) }',
      "query ($limit: Int, $on: Boolean!) { echo(order: NEWEST_FIRST, limit: $limit) @include(if: $on) }",
    ])
      expect(compilesExactly(schema, parse(exact)), exact).toBe(true);
  });

  it("reports a resolver's error as graphql-js does: its path, location, thrown error and an extensions object", async () => {
    const { data, errors } = await run(parse("{ failing }"));
    expect(data).toEqual({ failing: null });
    const [error] = errors!;
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error!.originalError).toBeInstanceOf(Refusal);
    expect(error!.path).toEqual(["failing"]);
    expect(error!.locations).toEqual([{ line: 1, column: 3 }]);
    expect(error!.extensions).toEqual({});
  });
});

describe("Apollo's execution through the compiled operations", () => {
  const apolloOver = async () => {
    const counted = vi.fn(execute);
    const execution = apolloExecution(schema, counted);
    const apollo = new ApolloServer({
      gateway: execution.gateway,
      plugins: [execution.plugin],
      formatError: ({ message }) => ({ message: `formatted: ${message}` }),
    });
    await apollo.start();
    return { apollo, counted };
  };
  const single = (body: { kind: string; singleResult?: unknown }) =>
    body.kind === "single" ? body.singleResult : body;

  it("answers an operation that succeeds, running it once", async () => {
    const { apollo, counted } = await apolloOver();
    const response = await apollo.executeOperation({ query: '{ greet(name: "ada") }' });
    expect(single(response.body)).toEqual({ data: { greet: "hello ada" } });
    expect(response.http.status).toBeUndefined();
    expect(counted).toHaveBeenCalledTimes(1);
    await apollo.stop();
  });

  // The plugin declines it and Apollo's own path (through the gateway) finishes it: errors formatted, status set.
  // A run that threw is finished there too, as Apollo finishes an executor's throw.
  it("gives an operation's errors, or its throw, Apollo's treatment without running the operation again", async () => {
    const { apollo, counted } = await apolloOver();
    const failing = await apollo.executeOperation({ query: "{ failing }" });
    expect(single(failing.body)).toEqual({ data: { failing: null }, errors: [{ message: "formatted: refused" }] });
    expect(counted).toHaveBeenCalledTimes(1);
    const badVariable = await apollo.executeOperation({
      query: "query ($limit: Int) { echo(order: NEWEST_FIRST, limit: $limit) }",
      variables: { limit: "many" },
    });
    expect(badVariable.http.status).toBe(400);
    expect(single(badVariable.body)).toEqual({
      errors: [
        {
          message:
            'formatted: Variable "$limit" got invalid value "many"; Int cannot represent non-integer value: "many"',
        },
      ],
    });
    expect(counted).toHaveBeenCalledTimes(2);
    counted.mockRejectedValueOnce(new Error("the executor broke"));
    const thrown = await apollo.executeOperation({ query: '{ greet(name: "ada") }' });
    expect(single(thrown.body)).toEqual({ errors: [{ message: "formatted: the executor broke" }] });
    expect(counted).toHaveBeenCalledTimes(3);
    await apollo.stop();
  });
});
