import "reflect-metadata";
import { printType, type GraphQLInputObjectType } from "graphql";
import { Arg, buildSchema, Query, Resolver } from "type-graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inputType } from "../../src/graphql/types/input-type.js";
import { describedEnum } from "../../src/enums.js";
import { graphqlEnum } from "../../src/graphql/types/output-type.js";
import { DateTimeScalar } from "../../src/graphql/types/scalars.js";
import { inputObject, named } from "../../src/output.js";
import { amount, instant, omissible, uuid } from "../../src/validation.js";

const SHADES = ["light", "dark"] as const;
graphqlEnum(describedEnum("TestShade", SHADES, { description: "A shade." }));

const part = inputObject("TestPartInput", "A part.", z.object({ label: z.string().describe("Its label.") }));
const whole = z
  .object({
    id: named("ID", uuid()).describe("An id."),
    name: z.string().trim().min(1).describe("A plain string."),
    url: z.url().describe("A string of a format stays a String."),
    mode: z.enum(["fast", "slow"]).describe("An enum GraphQL does not name stays a String."),
    shade: named("TestShade", z.enum(SHADES)).describe("A named enum."),
    count: z.number().int().describe("An integer."),
    ratio: z.number().describe("A fraction."),
    done: z.boolean().describe("A yes or no."),
    consent: z.literal(true).describe("A literal, typed by its value."),
    price: named("Decimal", amount()).describe("A decimal."),
    at: named("DateTime", instant()).describe("An instant."),
    note: z.string().optional().describe("May be left out."),
    hint: omissible(z.string()).describe("May be null: what a transform does after is not the caller's."),
    page: z.number().int().default(1).describe("Has a default."),
    tags: z.array(z.string()).max(3).describe("A list."),
    parts: z.array(part).optional().describe("Nested objects."),
    main: part.describe("A nested object, described here."),
    hidden: z.string().describe("Not taken where the fields are listed."),
  })
  .strict()
  .refine(() => true);

async function printed(Type: abstract new () => object, name: string): Promise<string[]> {
  @Resolver()
  class TestResolver {
    @Query(() => Boolean)
    take(@Arg("input", () => Type) _input: object): boolean {
      return true;
    }
  }
  const schema = await buildSchema({
    resolvers: [TestResolver],
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    validate: false,
  });
  return printType(schema.getType(name) as GraphQLInputObjectType)
    .split("\n")
    .filter(Boolean);
}

describe("GraphQL input types from operations' input schemas", () => {
  it("types every field by what a caller sends before validation, with its description", async () => {
    const Whole = inputType("TestWholeInput", whole, { description: "Every kind of field an input has." });
    expect(await printed(Whole, "TestWholeInput")).toEqual([
      '"""Every kind of field an input has."""',
      "input TestWholeInput {",
      '  """An id."""',
      "  id: ID!",
      '  """A plain string."""',
      "  name: String!",
      '  """A string of a format stays a String."""',
      "  url: String!",
      '  """An enum GraphQL does not name stays a String."""',
      "  mode: String!",
      '  """A named enum."""',
      "  shade: TestShade!",
      '  """An integer."""',
      "  count: Int!",
      '  """A fraction."""',
      "  ratio: Float!",
      '  """A yes or no."""',
      "  done: Boolean!",
      '  """A literal, typed by its value."""',
      "  consent: Boolean!",
      '  """A decimal."""',
      "  price: Decimal!",
      '  """An instant."""',
      "  at: DateTime!",
      '  """May be left out."""',
      "  note: String",
      '  """May be null: what a transform does after is not the caller\'s."""',
      "  hint: String",
      '  """Has a default."""',
      "  page: Int",
      '  """A list."""',
      "  tags: [String!]!",
      '  """Nested objects."""',
      "  parts: [TestPartInput!]",
      '  """A nested object, described here."""',
      "  main: TestPartInput!",
      '  """Not taken where the fields are listed."""',
      "  hidden: String!",
      "}",
    ]);
    // The nested object's type keeps its own description; built once, a type named twice is the same class.
    expect((await printed(Whole, "TestPartInput"))[0]).toBe('"""A part."""');
    expect(inputType("TestWholeInput", whole, { description: "-" })).toBe(Whole);
  });

  it("takes only the fields listed, in the order listed", async () => {
    const Some = inputType("TestSomeInput", whole, { description: undefined, fields: ["shade", "id"] });
    expect(await printed(Some, "TestSomeInput")).toEqual([
      "input TestSomeInput {",
      '  """A named enum."""',
      "  shade: TestShade!",
      '  """An id."""',
      "  id: ID!",
      "}",
    ]);
  });

  it("refuses what it cannot type: an unnamed object, a list of nullable items, an unnamed record, a name taken twice", () => {
    expect(() =>
      inputType("TestLoose", z.object({ inner: z.object({ label: z.string() }) }), { description: "-" }),
    ).toThrow("An object in an input needs its GraphQL name (inputObject)");
    expect(() =>
      inputType("TestList", z.object({ labels: z.array(z.string().nullable()) }), { description: "-" }),
    ).toThrow("Input lists hold no nulls");
    expect(() =>
      inputType("TestRecord", z.object({ data: z.record(z.string(), z.unknown()) }), { description: "-" }),
    ).toThrow("An input field of zod type record needs a GraphQL type named (named())");
    expect(() => inputType("TestWholeInput", z.object({ other: z.string() }), { description: "-" })).toThrow(
      "Two input objects are named TestWholeInput",
    );
  });
});
