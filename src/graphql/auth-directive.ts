import { getDirective, MapperKind, mapSchema } from "@graphql-tools/utils";
import { DirectiveLocation, GraphQLDirective, GraphQLEnumType, GraphQLList, GraphQLNonNull, type GraphQLSchema } from "graphql";
import { Directive } from "type-graphql";
import { CAPABILITIES, requireCapabilities, type Capability } from "../auth/capabilities.js";
import type { GraphQLContext } from "./context.js";

const capabilityEnum = new GraphQLEnumType({
  name: "Capability",
  description: "A task of the capability matrix (CONTRACT.md).",
  values: Object.fromEntries(CAPABILITIES.map((capability) => [capability, { value: capability }])),
});

export const authDirective = new GraphQLDirective({
  name: "auth",
  description: "The tasks of the capability matrix this field performs; the server enforces it.",
  locations: [DirectiveLocation.FIELD_DEFINITION],
  args: { requires: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(capabilityEnum))) } },
});

/** Declares the capabilities a field needs; visible in schema.graphql and enforced by `enforceAuth`. */
export function Auth(...capabilities: [Capability, ...Capability[]]): MethodDecorator & PropertyDecorator {
  return Directive(`@auth(requires: [${capabilities.join(", ")}])`);
}

/** Wraps every field carrying @auth so its resolver (and subscription source) first checks the matrix. */
export function enforceAuth(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => {
      const requires = getDirective(schema, field, "auth")?.[0]?.requires as Capability[] | undefined;
      if (!requires) return field;
      const { resolve, subscribe } = field;
      return {
        ...field,
        ...(resolve && {
          resolve: (source, args, context: GraphQLContext, info) => {
            requireCapabilities(context.principal, requires);
            return resolve(source, args, context, info);
          },
        }),
        ...(subscribe && {
          subscribe: (source, args, context: GraphQLContext, info) => {
            requireCapabilities(context.principal, requires);
            return subscribe(source, args, context, info);
          },
        }),
      };
    },
  });
}
