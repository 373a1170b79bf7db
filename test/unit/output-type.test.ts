import "reflect-metadata";
import { printType, type GraphQLObjectType } from "graphql";
import { buildSchema, Query, Resolver } from "type-graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describedEnum } from "../../src/enums.js";
import { graphqlEnum, outputType } from "../../src/graphql/types/output-type.js";
import { DateTimeScalar } from "../../src/graphql/types/scalars.js";
import { idField, instantField, named, outputObject } from "../../src/output.js";

const COLOURS = ["red", "darkBlue"] as const;
graphqlEnum(describedEnum("TestColour", COLOURS, { description: "A colour." }));

const part = outputObject("TestPart", "A part.", { label: z.string().describe("Its label.") });
const whole = outputObject("TestWhole", "Every kind of field an output has.", {
  id: idField("Its id."),
  name: z.string().describe("A plain string."),
  count: z.number().int().describe("A whole number."),
  ratio: z.number().describe("Any number."),
  done: z.boolean().describe("A flag."),
  at: instantField("An instant."),
  price: named("Decimal", z.string()).describe("A decimal."),
  colour: named("TestColour", z.enum(COLOURS)).describe("A named enum."),
  note: z.string().nullable().describe("Null when there is none."),
  since: instantField("An instant that may be missing.").nullable(),
  parts: z.array(part).describe("Nested objects."),
  main: part.describe("A nested object that may be null.").nullable(),
});

describe("GraphQL types from output schemas", () => {
  it("types every field as the schema says, with its description, in the schema's order", async () => {
    const Whole = outputType(whole);
    @Resolver()
    class WholeResolver {
      @Query(() => Whole)
      whole(): z.output<typeof whole> {
        throw new Error("not called");
      }
    }
    const schema = await buildSchema({
      resolvers: [WholeResolver],
      scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
      validate: false,
    });
    const printed = printType(schema.getType("TestWhole") as GraphQLObjectType);
    expect(printed.split("\n").filter(Boolean)).toEqual([
      '"""Every kind of field an output has."""',
      "type TestWhole {",
      '  """Its id."""',
      "  id: ID!",
      '  """A plain string."""',
      "  name: String!",
      '  """A whole number."""',
      "  count: Int!",
      '  """Any number."""',
      "  ratio: Float!",
      '  """A flag."""',
      "  done: Boolean!",
      '  """An instant."""',
      "  at: DateTime!",
      '  """A decimal."""',
      "  price: Decimal!",
      '  """A named enum."""',
      "  colour: TestColour!",
      '  """Null when there is none."""',
      "  note: String",
      '  """An instant that may be missing."""',
      "  since: DateTime",
      '  """Nested objects."""',
      "  parts: [TestPart!]!",
      '  """A nested object that may be null."""',
      "  main: TestPart",
      "}",
    ]);
    // A field describing the object it holds describes a copy: the object's type keeps its own description.
    expect(printType(schema.getType("TestPart") as GraphQLObjectType).split("\n")[0]).toBe('"""A part."""');
    // Built once: a type named twice is the same class.
    expect(outputType(whole)).toBe(Whole);
  });

  it("refuses what it cannot type: an enum without its GraphQL name, an unnamed object, a list of nullable items", () => {
    expect(() => outputType(outputObject("TestEnum", "-", { colour: z.enum(COLOURS) }))).toThrow(
      "An output field of zod type enum needs a GraphQL type named (named())",
    );
    expect(() => outputType(z.object({ label: z.string() }))).toThrow("An output object needs its GraphQL name");
    expect(() => outputType(outputObject("TestList", "-", { labels: z.array(z.string().nullable()) }))).toThrow(
      "Output lists hold no nulls",
    );
  });

  it("refuses a name no type is registered under, when the schema is built", async () => {
    const Odd = outputType(outputObject("TestOdd", "-", { odd: named("NoSuchType", z.string()) }));
    @Resolver()
    class OddResolver {
      @Query(() => Odd)
      odd(): never {
        throw new Error("not called");
      }
    }
    await expect(buildSchema({ resolvers: [OddResolver], validate: false })).rejects.toThrow(
      "No GraphQL type is registered under the name NoSuchType",
    );
  });
});
