import { getDirective, MapperKind, mapSchema } from "@graphql-tools/utils";
import type { ApolloServerPlugin } from "@apollo/server";
import {
  defaultFieldResolver,
  DirectiveLocation,
  GraphQLDirective,
  GraphQLEnumType,
  GraphQLError,
  GraphQLList,
  GraphQLNonNull,
  Kind,
  type GraphQLField,
  type GraphQLFieldConfig,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { Directive } from "type-graphql";
import { CAPABILITIES, type Capability } from "../auth/capabilities.js";
import { AppError } from "../errors.js";
import type { GraphQLContext } from "./context.js";
import { toGraphQLError } from "./errors.js";

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

/** The same caller checks, in the same order, as REST. */
function authorize(context: GraphQLContext, requires: Capability[]): void {
  context.app.delegation.checkCaller(context.principal, context.selector, requires);
}

function requiredCapabilities(
  schema: GraphQLSchema,
  field: GraphQLField<unknown, unknown> | GraphQLFieldConfig<unknown, unknown>,
) {
  return getDirective(schema, field, "auth")?.[0]?.requires as Capability[] | undefined;
}

/**
 * Checks the @auth of an operation's root fields as soon as the operation is known, before variables
 * are coerced: an unauthenticated caller gets an authentication error, never a validation error.
 * (Fields below the root, and roots reached through fragments, are checked by `enforceAuth`.)
 */
export function authorizeRootFields(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  context: GraphQLContext,
): void {
  const root = schema.getRootType(operation.operation);
  for (const selection of operation.selectionSet.selections) {
    const field = selection.kind === Kind.FIELD ? root?.getFields()[selection.name.value] : undefined;
    const requires = field && requiredCapabilities(schema, field);
    if (requires) authorize(context, requires);
  }
}

/** `authorizeRootFields` for Apollo over HTTP, answering with the error's HTTP status. */
export function authorizeOperationFirst(schema: GraphQLSchema): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (!operation) return;
          try {
            authorizeRootFields(schema, operation, contextValue);
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            const { message, extensions } = toGraphQLError(error);
            throw new GraphQLError(message, { extensions: { ...extensions, http: { status: error.status } } });
          }
        },
      };
    },
  };
}

/**
 * Wraps every field carrying @auth so its resolver (and subscription source) first checks the matrix.
 * Deny by default: a root field without @auth stops the schema from being built, so the server does not start.
 */
export function enforceAuth(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name),
  );
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const requires = requiredCapabilities(schema, field);
      if (!requires && roots.has(typeName)) throw new Error(`GraphQL ${typeName}.${fieldName} declares no @auth rule`);
      if (!requires) return field;
      // A field without a resolver of its own reads its property: it is checked all the same.
      const { resolve = defaultFieldResolver, subscribe } = field;
      return {
        ...field,
        resolve: (source, args, context: GraphQLContext, info) => {
          authorize(context, requires);
          return resolve(source, args, context, info);
        },
        ...(subscribe && {
          subscribe: (source, args, context: GraphQLContext, info) => {
            authorize(context, requires);
            return subscribe(source, args, context, info);
          },
        }),
      };
    },
  });
}
