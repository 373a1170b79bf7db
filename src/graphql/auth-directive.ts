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
import { CAPABILITIES, type Capability } from "../auth/capabilities.js";
import { DELEGATION_RULES, type DelegationName, type DelegationRule } from "../auth/delegation.js";
import type { AccessRule } from "../operations/operation.js";
import type { GraphQLContext } from "./context.js";

const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  SIGN_IN: "Sign-in and session renewal; open to every caller, anonymous included.",
  QUOTE: "Quotes and widget attribution; open to every caller, anonymous included.",
  REFERENCE_DATA: "Public reference data; open to every caller, though a presented credential must be valid.",
  RAMP_INFO: "KYC status and buy and sell eligibility per corridor; a public or secret key only.",
  PROFILE_READ: "Reading the calling profile itself; a secret key or a session.",
  EXACT_LIMITS: "Exact limits and onboarding status; a secret key or a session.",
  PROVIDER_ACCOUNTS: "The subject's provider customers, KYC/KYB and payout fiat accounts; a secret key or a session.",
  RAMP_OPERATIONS:
    "Registering, updating and starting ramps, and reading their status, history and errors; a secret key or a session.",
  ACT_FOR_MANAGED_CHILD: "Acting for a managed child through X-Managed-Profile-Id; a secret key or a session.",
  MANAGED_PROFILES: "Creating, listing, reading and deleting one's own managed children; a secret key or a session.",
  MANAGE_CHILD_CREDENTIALS: "Managing a directly owned child's credentials; a secret key or a session.",
  BR_KYC_IMPORT: "Importing a BR individual-KYC token; a secret key or a session.",
  WEBHOOK_MANAGEMENT: "Managing webhook subscriptions; a secret key only.",
  OWN_CREDENTIALS: "The lifecycle of the caller's own API credentials; a session only.",
  RECIPIENTS: "Sender-side recipient operations; a session only.",
  ACTIVE_ENTITY: "Choosing the entity (individual or business) the signed-in profile acts as; a session only.",
  OPERATOR:
    "The operator surface: managers, partners, partner credentials, pricing assignments; the operator token only.",
};

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
