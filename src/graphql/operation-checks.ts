import type { ApolloServerPlugin, GraphQLRequestListener } from "@apollo/server";
import { getOperationAST, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { AppError } from "../errors.js";
import { authorizeRootFields } from "./auth-directive.js";
import type { GraphQLContext } from "./context.js";
import { toRequestRefusal } from "./errors.js";
import { refuseLargeLists } from "./list-items.js";
import { refuseDeepInput } from "../validation.js";

/**
 * The operation of `document` that `operationName` names (the only one when no name is given), as graphql-js and
 * Apollo resolve it; none is a refusal in graphql-js's words. Nothing runs, and nothing is checked, on a guess.
 */
export function resolveOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode {
  const operation = getOperationAST(document, operationName);
  if (operation) return operation;
  throw new AppError(
    "VALIDATION_FAILED",
    operationName
      ? `Unknown operation named "${operationName}".`
      : "Must provide operation name if query contains multiple operations.",
  );
}

/**
 * What every operation passes once it and its variables are known, before anything runs, over HTTP and over
 * WebSocket alike: its root fields' @auth (so an unauthenticated caller gets an authentication error, never a
 * validation error), then variables no deeper than MAX_INPUT_DEPTH, then the list-items limit.
 */
export function checkOperation(
  schema: GraphQLSchema,
  {
    document,
    operation,
    variables,
  }: {
    document: DocumentNode;
    operation: OperationDefinitionNode;
    variables: Record<string, unknown> | undefined;
  },
  context: GraphQLContext,
  maxListItems: number,
): void {
  authorizeRootFields(schema, operation, context);
  // Before graphql-js or any resolver walks them.
  refuseDeepInput(variables);
  refuseLargeLists(schema, document, operation, variables, maxListItems);
}

/**
 * `checkOperation` for operations over HTTP, which also refuses subscriptions there; refusals are answered with
 * their HTTP status. One plugin, whose listener is made once: Apollo calls every plugin's hooks on every request.
 */
export function operationChecks(schema: GraphQLSchema, maxListItems: number): ApolloServerPlugin<GraphQLContext> {
  const listener: GraphQLRequestListener<GraphQLContext> = {
    async didResolveOperation({ document, operation, request, contextValue }) {
      try {
        // Apollo goes on without an operation when the name matches none, skipping its own checks (405 for a
        // mutation sent by GET): resolving it again refuses the request, before anything runs.
        const resolved = operation ?? resolveOperation(document, request.operationName);
        // Subscriptions run over WebSocket (graphql-ws, same path): over HTTP, graphql-js would run the
        // field's resolver without an event.
        if (resolved.operation === "subscription") {
          throw new AppError(
            "VALIDATION_FAILED",
            "Subscriptions are served over WebSocket (graphql-ws) at /graphql, not over HTTP.",
          );
        }
        checkOperation(
          schema,
          { document, operation: resolved, variables: request.variables },
          contextValue,
          maxListItems,
        );
      } catch (error) {
        throw error instanceof AppError ? toRequestRefusal(error) : error;
      }
    },
  };
  const started = Promise.resolve(listener);
  return { requestDidStart: () => started };
}
