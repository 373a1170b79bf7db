import type { ApolloServerOptionsWithGateway, ApolloServerPlugin, GraphQLRequestListener } from "@apollo/server";
import {
  BREAK,
  execute,
  getVariableValues,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  GraphQLError,
  validate,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type NameNode,
  type StringValueNode,
  type ValidationRule,
} from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import { LRUCache } from "lru-cache";
import type { GraphQLContext } from "./context.js";
import { resolveOperation } from "./operation-checks.js";

/**
 * Documents whose operations are kept compiled, the least recently run out first. A compiled operation holds
 * some ten times its text (31 KB for a 300-character dashboard query) and a dashboard runs a few dozen, while
 * Apollo's document store could hold thousands of one-off texts.
 */
export const MAX_COMPILED_DOCUMENTS = 256;

/**
 * graphql-jit writes an operation's literal arguments into the code it compiles as JSON, then turns back into
 * values the strings that start with its markers: `"__MAGIC_DATE__<its uuid><rest>"` becomes `new Date(<rest>)`,
 * the rest as code. The markers are in its published source, so a string argument could run code on the server.
 */
const COMPILER_MARKER = /__MAGIC_(?:DATE|NAN|PLUS_INFINITY|MINUS_INFINITY)__/;

/**
 * Refuses a document that holds one of graphql-jit's markers (see COMPILER_MARKER): no caller has a reason to
 * send one, and it is refused on every transport before anything runs.
 */
export const refuseCompilerMarkers: ValidationRule = (context) => {
  // A name too: an input object's keys (a JSON object argument) reach the compiled code as well.
  const look = (node: StringValueNode | NameNode) => {
    if (!COMPILER_MARKER.test(node.value)) return;
    const message = "A string or name in the document holds a sequence this server reserves.";
    context.reportError(new GraphQLError(message, { nodes: node }));
  };
  return { StringValue: look, Name: look };
};

/**
 * graphql-js's `execute`, as every GraphQL execution of the gateway runs (see compiledExecution), given the
 * operation the server resolved when it has (Apollo, graphql-ws's onSubscribe): it runs that one, never another.
 */
export type Execute = (args: ExecutionArgs & { operation?: OperationDefinitionNode }) => Promise<ExecutionResult>;

/**
 * `execute` for one schema, with each operation compiled to JavaScript once (graphql-jit) instead of graphql-js
 * walking its syntax tree for every field of every request: a dashboard's page of ramps costs a quarter less
 * CPU. It runs every operation: over HTTP (through Apollo, `apolloExecution`), over WebSocket, and each event
 * of a subscription (the operation run with the event as its root value).
 *
 * A compiled operation is kept with its parsed document, which Apollo's document store and the WebSocket
 * document cache hand back for a repeated text: a repeated query costs no compilation (compiling one costs
 * about as much as running one or two pages of ramps). Variables are checked by graphql-js first, so a bad
 * value is refused with graphql-js's words (Apollo answers it 400, as before); the compiled operation then
 * coerces them itself.
 */
export function compiledExecution(schema: GraphQLSchema): Execute {
  const compiled = new LRUCache<DocumentNode, Map<OperationDefinitionNode, Run>>({ max: MAX_COMPILED_DOCUMENTS });
  const compile = (document: DocumentNode, operation: OperationDefinitionNode): Run => {
    let byOperation = compiled.get(document);
    if (!byOperation) compiled.set(document, (byOperation = new Map()));
    let run = byOperation.get(operation);
    if (!run) {
      // Validation refuses such a document first; this keeps one that skipped it from ever reaching the compiler.
      const refusals = validate(schema, document, [refuseCompilerMarkers]);
      run = refusals.length
        ? async () => ({ errors: refusals })
        : compilesExactly(schema, document)
          ? compiledRun(schema, document, operation)
          : async (rootValue, contextValue, variableValues) =>
              execute({
                schema,
                document,
                operationName: operation.name?.value,
                rootValue,
                contextValue,
                variableValues,
              });
      byOperation.set(operation, run);
    }
    return run;
  };
  return ({ document, operation, operationName, variableValues, contextValue, rootValue }) =>
    compile(document, operation ?? resolveOperation(document, operationName))(rootValue, contextValue, variableValues);
}

/** One operation of a document, ready to run with a root value, a context and the variables as sent. */
type Run = (
  rootValue: unknown,
  contextValue: unknown,
  variableValues: ExecutionArgs["variableValues"],
) => Promise<ExecutionResult>;

/** The operation compiled by graphql-jit, its variables checked and defaulted as graphql-js would. */
function compiledRun(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Run {
  // Stack traces are never shown to callers (Apollo drops them): capturing them for errors only costs. The
  // operation is named as resolved: graphql-jit runs a document's only operation whatever the name.
  const query = compileQuery(schema, document, operation.name?.value, { disablingCapturingStackErrors: true });
  if (!isCompiledQuery(query)) return async () => query;
  const variableDefinitions = operation.variableDefinitions ?? [];
  const defaults = variableDefaults(operation);
  return async (rootValue, contextValue, variableValues) => {
    const given = variableValues ?? {};
    const checked = getVariableValues(schema, variableDefinitions, given);
    if (checked.errors) return { errors: checked.errors };
    // graphql-jit refuses a non-null variable left out although it has a default: it gets its default as sent.
    const variables = defaults.some(([name]) => !Object.hasOwn(given, name))
      ? { ...Object.fromEntries(defaults), ...given }
      : given;
    const result = await query.query(rootValue, contextValue, variables);
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLJsError) } : result;
  };
}

/**
 * Whether graphql-jit runs the document exactly as graphql-js would. It reads a custom scalar's literal (a
 * `JSONObject` argument written in the document) once, as it compiles, with no variables: a variable inside
 * one (`[{signature: $sig, n: 1}]`) would vanish from the value (`[{n: 1}]`). Such a document runs on graphql-js.
 * `test/audit/graphql-executors.test.ts` holds the two executors to the same results over every document the
 * test suite sends, and variants of them.
 */
export function compilesExactly(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let exact = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      // Inside a scalar's literal, graphql-js knows no input type: only there can a variable have none.
      Variable(_node, _key, parent) {
        if ((parent as ASTNode | undefined)?.kind !== Kind.VARIABLE_DEFINITION && !typeInfo.getInputType()) {
          exact = false;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  return exact;
}

/**
 * Apollo's execution through `execute`, in two parts given to one ApolloServer: its gateway interface, the one
 * place Apollo takes an executor, and a plugin that answers each operation before Apollo's gateway path runs.
 *
 * The plugin exists for speed: for every operation the gateway path builds an object literal whose getters and
 * setters close over the request (Apollo's makeGatewayGraphQLRequestContext), and V8 keeps what such closures hold
 * alive through young collections: a tenth of a request's memory reached the old generation, which forced a full
 * collection every second and long pauses at the 99th percentile. An operation that succeeds is answered by the
 * plugin. One with errors (or that threw) goes on through Apollo's own path, which formats them, tells the plugins
 * and sets the status; the gateway's executor hands it back the run already made, so nothing runs twice.
 * Plugins' execution hooks (executionDidStart, willResolveField) do not run for an operation the plugin answers:
 * none of the server's plugins has one (a plugin that did would see only the operations with errors).
 */
export function apolloExecution(
  schema: GraphQLSchema,
  execute: Execute,
): { gateway: ApolloServerOptionsWithGateway<GraphQLContext>["gateway"]; plugin: ApolloServerPlugin<GraphQLContext> } {
  // The runs the plugin left to Apollo's own path, by their request's context.
  const declined = new WeakMap<object, Promise<ExecutionResult>>();
  const listener: GraphQLRequestListener<GraphQLContext> = {
    async responseForOperation({ document, operation, request, contextValue, response }) {
      // operationChecks refused the request when Apollo resolved no operation.
      if (!operation) throw new Error("an operation Apollo did not resolve reached execution");
      const run = execute({ schema, document, operation, variableValues: request.variables, contextValue });
      const result = await run.catch(() => undefined);
      // The request's own head: nothing to add to it.
      if (result && !result.errors) return { http: response.http, body: { kind: "single", singleResult: result } };
      declined.set(contextValue, run);
      return null;
    },
  };
  const started = Promise.resolve(listener);
  return {
    gateway: {
      onSchemaLoadOrUpdate(callback) {
        callback({ apiSchema: schema, coreSupergraphSdl: "" });
        return () => undefined;
      },
      load: async () => ({
        // Apollo asks the gateway only for an operation the plugin declined: its run, errors or a throw.
        executor: ({ context }) => {
          const run = declined.get(context);
          if (!run) throw new Error("the gateway was asked for an operation the plugin did not run");
          declined.delete(context);
          return run;
        },
      }),
      stop: async () => undefined,
    },
    plugin: { requestDidStart: () => started },
  };
}

function variableDefaults(operation: OperationDefinitionNode): [string, unknown][] {
  return (operation.variableDefinitions ?? []).flatMap(({ variable, defaultValue }) =>
    defaultValue ? [[variable.name.value, valueFromASTUntyped(defaultValue)] as [string, unknown]] : [],
  );
}

/**
 * A resolver's error as graphql-js reports it. graphql-jit's own errors have no `extensions` object unless the
 * thrown error had one, and Apollo reads that object's `code` from every error.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  if (error.extensions) return error;
  const { message, path, originalError, locations } = error;
  return Object.assign(new GraphQLError(message, { path, originalError }), { locations });
}
