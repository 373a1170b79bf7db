import type { GraphQLResolveInfo } from "graphql";
import { createParameterDecorator } from "type-graphql";
import type { OperatorActor } from "../audit/types.js";
import type { ActingContext, DelegationRule } from "../auth/delegation.js";
import { AppError } from "../errors.js";
import { declaredDelegation } from "./auth-directive.js";
import type { GraphQLContext } from "./context.js";

/** The delegation rule the field being resolved declares in its @auth. */
export function fieldDelegation(info: GraphQLResolveInfo): DelegationRule {
  return declaredDelegation(info.schema, info.parentType.getFields()[info.fieldName]!);
}

/** Who acts for whom, under the resolving field's declared delegation rule (the one path REST uses too). */
export async function actingFor(context: GraphQLContext, info: GraphQLResolveInfo): Promise<ActingContext> {
  const acting = await optionalActingFor(context, info);
  if (!acting) throw new AppError("AUTHENTICATION_REQUIRED");
  return acting;
}

/** `actingFor` for operations open to anonymous callers (quotes): null when nobody is authenticated. */
function optionalActingFor(context: GraphQLContext, info: GraphQLResolveInfo): Promise<ActingContext | null> {
  return context.app.delegation.resolve(context.principal, context.selector, fieldDelegation(info));
}

/** A resolver parameter: the acting context under the field's declared rule (AUTHENTICATION_REQUIRED without one). */
export const Acting = () => createParameterDecorator<GraphQLContext>(({ context, info }) => actingFor(context, info));

/** A resolver parameter: the acting context under the field's declared rule, or null for an anonymous caller. */
export const OptionalActing = () =>
  createParameterDecorator<GraphQLContext>(({ context, info }) => optionalActingFor(context, info));

/** A resolver parameter: the operator, told apart by the request (every operator shares the operator token). */
export const Operator = () =>
  createParameterDecorator<GraphQLContext>(({ context }): OperatorActor => ({
    channel: "graphql",
    requestId: context.requestId,
    clientAddress: context.clientAddress,
  }));
