import "reflect-metadata";
import { printSchemaWithDirectives } from "@graphql-tools/utils";
import { graphql, specifiedDirectives, type ExecutionResult, type GraphQLSchema } from "graphql";
import { buildSchema, ID } from "type-graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { App } from "../../src/app.js";
import type { ActingContext } from "../../src/auth/delegation.js";
import type { AppError } from "../../src/errors.js";
import { authDirective } from "../../src/graphql/auth-directive.js";
import type { GraphQLContext } from "../../src/graphql/context.js";
import { GRAPHQL_FACES, operationField, operationResolver } from "../../src/graphql/operation-field.js";
import { inputType } from "../../src/graphql/types/input-type.js";
import { defineOpenOperation, defineOperation } from "../../src/operations/operation.js";
import { idField, outputObject } from "../../src/output.js";

const thing = outputObject("TestThing", "A thing.", {
  id: idField("Its id."),
  label: z.string().describe("Its label."),
});

/** Answers what it was given, and who asked: what the field passed on. */
const readThing = defineOperation({
  name: "readThing",
  summary: "Reads a thing.",
  access: { requires: ["PROFILE_READ"], delegation: "DELEGATED" },
  input: z.object({
    id: z.uuid().describe("The thing's id."),
    label: z.string().max(5).optional().describe("A label of at most 5 characters."),
  }),
  output: thing,
  run: (_app, acting, { id, label }) => ({ id, label: `${label ?? "none"} for ${acting.subjectProfileId}` }),
});
const nameThing = defineOpenOperation(
  { requires: ["QUOTE"], delegation: "DELEGATED" },
  {
    name: "nameThing",
    summary: "Names a thing.",
    input: z.object({ id: z.uuid(), label: z.string() }),
    run: (_app, acting, { id, label }) => ({ id, label: `${label} by ${acting?.subjectProfileId ?? "anyone"}` }),
  },
);
const relabelThing = defineOpenOperation(
  { requires: ["QUOTE"], delegation: "DELEGATED" },
  {
    name: "relabelThing",
    summary: "Relabels a thing.",
    input: z.object({ id: z.uuid().describe("Which."), label: z.string().describe("The new label.") }),
    run: (_app, _acting, thing) => thing,
  },
);
const listThings = defineOpenOperation(
  { requires: ["QUOTE"], delegation: "DELEGATED" },
  {
    name: "listThings",
    summary: "List the things",
    input: z.object({}),
    output: z.object({ things: z.array(thing) }),
    run: () => ({ things: [{ id: "00000000-0000-4000-8000-000000000002", label: "listed" }] }),
  },
);
const RelabelThingInput = inputType("RelabelThingInput", relabelThing.input, { description: "A thing, relabelled." });

const ThingResolver = operationResolver("ThingResolver", [
  operationField(readThing, {
    // Typed by the operation's output object.
    query: "thing",
    nullable: true,
    description: "A thing by id.",
    // Each argument is its input field, typed and described by it: the face names the order and an ID.
    args: { label: {}, id: { type: () => ID } },
  }),
  operationField(nameThing, {
    mutation: "nameThing",
    payload: { thing: thing.describe("The named thing.") },
    description: "Names a thing.",
    args: {
      input: { field: "label", description: "The new label." },
      id: { type: () => ID, description: "Which." },
    },
    check: ({ input }) => {
      if (input === "refused") throw new Error("the field's own check refused it");
    },
  }),
  operationField(relabelThing, {
    mutation: "relabelThing",
    payload: { thing: thing.describe("The relabelled thing.") },
    description: "Relabels a thing.",
    // An argument of an input type is described as that type is.
    args: { input: { type: () => RelabelThingInput } },
  }),
  // Described by the operation's summary, and typed by the list its result holds.
  operationField(listThings, { query: "things", list: "things" }),
]);

const ID_1 = "00000000-0000-4000-8000-000000000001";
const acting = { subjectProfileId: "profile-1" } as ActingContext;

function contextFor(actingContext: ActingContext | null): GraphQLContext {
  const app = { delegation: { resolve: () => Promise.resolve(actingContext) } } as unknown as App;
  return { app, principal: { kind: "anonymous" }, selector: undefined } as unknown as GraphQLContext;
}

const codeOf = (result: ExecutionResult) => (result.errors?.[0]?.originalError as AppError | undefined)?.code;

let built: Promise<GraphQLSchema> | undefined;
const schema = () =>
  (built ??= buildSchema({
    resolvers: [ThingResolver],
    directives: [...specifiedDirectives, authDirective],
    validate: false,
  }));

describe("GraphQL root fields declared from operations", () => {
  it("declares each field with its arguments in order, its type, its description and its operation's @auth", async () => {
    const printed = printSchemaWithDirectives(await schema());
    expect(printed).toContain(
      [
        "type Query {",
        '  """A thing by id."""',
        "  thing(",
        '    """A label of at most 5 characters."""',
        "    label: String",
        '    """The thing\'s id."""',
        "    id: ID!",
        "  ): TestThing @auth(requires: [PROFILE_READ], delegation: DELEGATED)",
        '  """List the things."""',
        "  things: [TestThing!]! @auth(requires: [QUOTE], delegation: DELEGATED)",
        "}",
      ].join("\n"),
    );
    expect(printed).toContain("): NameThingPayload! @auth(requires: [QUOTE], delegation: DELEGATED)");
    expect(printed).toContain('type NameThingPayload {\n  """The named thing."""\n  thing: TestThing!\n}');
    expect(printed).toContain(
      '  relabelThing(\n    """A thing, relabelled."""\n    input: RelabelThingInput!\n  ): RelabelThingPayload!',
    );
    // The parity test walks the fields through the operations they perform.
    expect(GRAPHQL_FACES.get(readThing)).toBe("thing");
    expect(GRAPHQL_FACES.get(nameThing)).toBe("nameThing");
  });

  it("performs the operation with the arguments, validated by its schema, for the acting context", async () => {
    const run = async (source: string, actingContext: ActingContext | null) =>
      graphql({ schema: await schema(), source, contextValue: contextFor(actingContext) });
    expect((await run(`{ thing(id: "${ID_1}", label: "red") { id label } }`, acting)).data).toEqual({
      thing: { id: ID_1, label: "red for profile-1" },
    });
    // A null for an input field that may be left out (not null) leaves it out, as a query string would.
    expect((await run(`{ thing(id: "${ID_1}", label: null) { label } }`, acting)).data).toEqual({
      thing: { label: "none for profile-1" },
    });
    // Invalid input is the operation's refusal, as over REST.
    const invalid = await run(`{ thing(id: "${ID_1}", label: "too long") { id } }`, acting);
    expect(codeOf(invalid)).toBe("VALIDATION_FAILED");
    // An operation that needs a subject refuses an anonymous caller.
    const anonymous = await run(`{ thing(id: "${ID_1}") { id } }`, null);
    expect(codeOf(anonymous)).toBe("AUTHENTICATION_REQUIRED");
    // An open one serves it, the result under the payload's one field.
    expect((await run(`mutation { nameThing(id: "${ID_1}", input: "blue") { thing { label } } }`, null)).data).toEqual({
      nameThing: { thing: { label: "blue by anyone" } },
    });
    expect((await run("{ things { label } }", null)).data).toEqual({ things: [{ label: "listed" }] });
    // What the field's own check refuses is answered after the operation's validation passes.
    const refused = await run(`mutation { nameThing(id: "${ID_1}", input: "refused") { thing { id } } }`, null);
    expect(refused.errors?.[0]?.message).toBe("the field's own check refused it");
  });

  it("refuses a field it cannot answer", () => {
    const face = { query: "broken", description: "Broken." } as const;
    const type = () => String;
    expect(() => operationResolver("NoTypeResolver", [operationField(nameThing, face)])).toThrow(
      "GraphQL field broken needs a type: its operation's output is no output object",
    );
    expect(() =>
      operationResolver("BothResolver", [operationField(readThing, { ...face, returns: type, payload: { thing } })]),
    ).toThrow("GraphQL field broken takes a type or a payload, not both");
    expect(() =>
      operationResolver("PagedPayloadResolver", [
        operationField(readThing, { ...face, payload: { thing }, page: "things" }),
      ]),
    ).toThrow("GraphQL field broken answers a page as its connection");
    expect(() =>
      operationResolver("ListedPayloadResolver", [
        operationField(listThings, { ...face, payload: { thing }, list: "things" }),
      ]),
    ).toThrow("GraphQL field broken answers its list");
    expect(() =>
      operationResolver("WidePayloadResolver", [
        operationField(readThing, { ...face, payload: { thing, other: thing } }),
      ]),
    ).toThrow("GraphQL field broken needs toResult to fill a payload of 2 fields");
    expect(() =>
      operationResolver("TwiceResolver", [
        operationField(readThing, { ...face, returns: type }),
        operationField(readThing, { ...face, returns: type }),
      ]),
    ).toThrow("GraphQL field broken is declared twice");
    const undescribed = defineOperation({ ...readThing, input: z.object({ id: z.uuid() }) });
    expect(() =>
      operationResolver("UndescribedResolver", [operationField(undescribed, { ...face, returns: type })]),
    ).toThrow("GraphQL argument broken(id) needs a type and a description");
  });
});
