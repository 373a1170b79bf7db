import { getDirective, MapperKind, mapSchema } from "@graphql-tools/utils";
import {
  defaultFieldResolver,
  DirectiveLocation,
  GraphQLDirective,
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  Kind,
  type GraphQLField,
  type GraphQLFieldConfig,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { Directive } from "type-graphql";
import { CAPABILITIES, CAPABILITY_DESCRIPTIONS, type Capability } from "../auth/capabilities.js";
import { DELEGATION_RULES, type DelegationName, type DelegationRule } from "../auth/delegation.js";
import type { AccessRule } from "../operations/operation.js";
import type { GraphQLContext } from "./context.js";

const capabilityEnum = new GraphQLEnumType({
  name: "Capability",
  description: "A task of the capability matrix (CONTRACT.md).",
  values: Object.fromEntries(
    CAPABILITIES.map((capability) => [
      capability,
      { value: capability, description: CAPABILITY_DESCRIPTIONS[capability] },
    ]),
  ),
});

const DELEGATION_DESCRIPTIONS: Record<DelegationName, string> = {
  NONE: "The caller acts for itself: X-Managed-Profile-Id is refused; a managed child's own key acts for the child.",
  DELEGATED: "X-Managed-Profile-Id selects a child of the caller, and a managed child's own key acts for the child.",
  SELECTOR_ONLY: "Only a manager's X-Managed-Profile-Id acts for a child; a managed child's own key is refused.",
  MANAGER_ONLY: "The manager acts for itself: X-Managed-Profile-Id and managed children's own keys are refused.",
};

const delegationEnum = new GraphQLEnumType({
  name: "Delegation",
  description: "How X-Managed-Profile-Id and managed children's own credentials apply to a field.",
  values: Object.fromEntries(
    Object.entries(DELEGATION_DESCRIPTIONS).map(([name, description]) => [name, { description }]),
  ),
});

export const authDirective = new GraphQLDirective({
  name: "auth",
  description: "Who may resolve this field: the tasks of the capability matrix it performs and its delegation rule.",
  locations: [DirectiveLocation.FIELD_DEFINITION],
  args: {
    requires: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(capabilityEnum))),
      description: "The tasks the caller's kind of credential must all be allowed.",
    },
    delegation: {
      type: new GraphQLNonNull(delegationEnum),
      description: "How X-Managed-Profile-Id and managed children's own credentials apply to the field.",
    },
  },
});

/**
 * Declares who may resolve a field: visible in schema.graphql, enforced by `enforceAuth`, and the rule the
 * field's acting context is resolved with (`@Acting()`).
 */
export function Auth(rule: AccessRule): MethodDecorator & PropertyDecorator {
  return Directive(`@auth(requires: [${rule.requires.join(", ")}], delegation: ${rule.delegation})`);
}

/** Each field's @auth, read once: reading a directive coerces its arguments again every time. */
const declaredAuth = new WeakMap<object, DeclaredAuth | undefined>();
type DeclaredAuth = { requires: Capability[]; delegation: DelegationName };

function authOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown> | GraphQLFieldConfig<unknown, unknown>) {
  if (!declaredAuth.has(field))
    declaredAuth.set(field, getDirective(schema, field, "auth")?.[0] as DeclaredAuth | undefined);
  return declaredAuth.get(field);
}

/** The delegation rule a field declares in its @auth. */
export function declaredDelegation(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): DelegationRule {
  const name = authOf(schema, field)?.delegation;
  if (!name) throw new Error(`GraphQL field ${field.name} needs an acting context but declares no @auth`);
  return DELEGATION_RULES[name];
}

/** The same caller checks, in the same order, as REST. */
function authorize(context: GraphQLContext, requires: Capability[]): void {
  context.app.delegation.checkCaller(context.principal, context.selector, requires);
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
    const requires = field && authOf(schema, field)?.requires;
    if (requires) authorize(context, requires);
  }
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
      const requires = authOf(schema, field)?.requires;
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
