import { createHash } from "node:crypto";
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import {
  astFromValue,
  execute,
  GraphQLInterfaceType,
  GraphQLUnionType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isScalarType,
  isInputType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  parseType,
  print,
  specifiedRules,
  TypeInfo,
  typeFromAST,
  validate,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DirectiveNode,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type ObjectFieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  type VariableDefinitionNode,
} from "graphql";
import { describe, expect, it } from "vitest";
import { compiledExecution, compilesExactly, refuseCompilerMarkers } from "../../src/graphql/compiled-execution.js";
import { buildAdminGraphQLSchema, buildGraphQLSchema } from "../../src/graphql/schema.js";
import { recordedOperations, type SentOperation } from "../support/graphql-documents.js";

/*
 * Runs after the rest of the suite (tools/test.sh): every GraphQL operation the suite sent (written down by its
 * clients, test/support/graphql-documents.ts), and variants of each (variables inside literals and literals for
 * variables, defaults, fragments, aliases, directives), through graphql-js and through the gateway's executor
 * (compiled by graphql-jit where it runs exactly, graphql-js otherwise): data and errors must be the same.
 *
 * Both run the gateway's schemas with deterministic resolvers instead of its services: every value is made from
 * the path to it and the arguments on that path, as each executor coerced them, and some fields fail or answer
 * null where the schema forbids it, so the executors' coercion, completion and error handling are all compared.
 */

const hash = (text: string) => createHash("sha256").update(text).digest().readUInt32BE(0);

/** JSON with sorted keys: the two executors need not build an object's keys in the same order. */
function stable(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** What an object value carries down: the fields and arguments on its path. */
interface Made {
  trail: string;
  __typename?: string;
}

function made(schema: GraphQLSchema, type: GraphQLOutputType, trail: string): unknown {
  const seed = hash(trail);
  if (isNonNullType(type)) return seed % 23 === 0 ? null : made(schema, type.ofType, trail);
  if (isListType(type))
    return Array.from({ length: seed % 3 }, (_, index) => made(schema, type.ofType, `${trail}[${index}]`));
  if (isAbstractType(type)) {
    const possible = schema.getPossibleTypes(type);
    return { trail, __typename: possible[seed % possible.length]!.name } satisfies Made;
  }
  if (isObjectType(type)) return { trail } satisfies Made;
  if (isEnumType(type)) {
    const values = type.getValues();
    return values[seed % values.length]!.value;
  }
  switch (type.name) {
    case "Int":
      return seed % 1000;
    case "Float":
      return (seed % 1000) / 8;
    case "Boolean":
      return seed % 2 === 0;
    case "DateTime":
      return new Date(1_700_000_000_000 + (seed % 1_000_000_000));
    case "Decimal":
      return `${seed % 1000}.25`;
    case "JSONObject":
      return { trail };
    default:
      return trail;
  }
}

/** The schema with every field answered from its path and arguments, and some failing. */
function deterministic(schema: GraphQLSchema): GraphQLSchema {
  const resolve: GraphQLFieldResolver<Made | undefined, unknown> = (source, args, _context, info) => {
    const trail = `${source?.trail ?? info.operation.operation}/${info.fieldName}${stable(args)}`;
    if (hash(trail) % 17 === 0) throw new Error(`refused at ${info.fieldName}`);
    return made(info.schema, info.returnType, trail);
  };
  const resolveType = (value: Made) => value.__typename;
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => ({ ...field, resolve, subscribe: undefined }),
    [MapperKind.INTERFACE_TYPE]: (type) => new GraphQLInterfaceType({ ...type.toConfig(), resolveType }),
    [MapperKind.UNION_TYPE]: (type) => new GraphQLUnionType({ ...type.toConfig(), resolveType }),
  });
}

/** An error as callers see it. */
const errorSeen = ({ message, path, locations }: GraphQLError) => stable({ message, path, locations });

/**
 * Where the null landed that hides an error's own position (an ancestor nulled because a non-null field under it
 * failed), or undefined when the position itself is in the data.
 */
function landingOf(path: readonly (string | number)[], data: unknown): string | undefined {
  let value = data;
  for (let depth = 0; depth < path.length; depth++) {
    if (value === null || value === undefined) return JSON.stringify(path.slice(0, Math.max(0, depth - 1)));
    value = (value as Record<string | number, unknown>)[path[depth]!];
  }
  return undefined;
}

/**
 * What differs between the two results, if anything. Data must be the same, and so must every error outside the
 * positions a non-null field's failure nulled. Under such a position graphql-js stops at the first failure (the
 * position's other fields do not run, or their failures are dropped), while graphql-jit runs them all and lists
 * each: there the gateway may list more than graphql-js, in another order, but no position graphql-js reports
 * nothing under.
 */
function difference(graphqlJs: ExecutionResult, gateway: ExecutionResult): string | undefined {
  if (stable(graphqlJs.data) !== stable(gateway.data)) return "data";
  const expected = new Set((graphqlJs.errors ?? []).map(errorSeen));
  const listed = new Set((gateway.errors ?? []).map(errorSeen));
  const missing = [...expected].filter((error) => !listed.has(error));
  if (missing.length) return `errors missing: ${missing.join(", ")}`;
  const nulledByGraphqlJs = new Set(
    (graphqlJs.errors ?? []).map(({ path = [] }) => landingOf(path, graphqlJs.data)).filter(Boolean),
  );
  const unexplained = (gateway.errors ?? []).filter((error) => {
    if (expected.has(errorSeen(error))) return false;
    const landing = landingOf(error.path ?? [], gateway.data);
    return landing === undefined || !nulledByGraphqlJs.has(landing);
  });
  return unexplained.length ? `errors added: ${unexplained.map(errorSeen).join(", ")}` : undefined;
}

interface Case {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

type Variables = Record<string, unknown>;

/** The operation's own definitions, with `change` applied to the one the case runs. */
function mapOperation(
  document: DocumentNode,
  operationName: string | undefined,
  change: (operation: OperationDefinitionNode) => OperationDefinitionNode,
): DocumentNode {
  const runs = (node: OperationDefinitionNode) => operationName === undefined || node.name?.value === operationName;
  return {
    ...document,
    definitions: document.definitions.map((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION && runs(definition) ? change(definition) : definition,
    ),
  };
}

/** Every variable used written into the document as its value, and their definitions dropped. */
function inlineVariables(schema: GraphQLSchema, document: DocumentNode, given: Case): Case | undefined {
  const values = new Map<string, ValueNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION)
      for (const { variable, type, defaultValue } of definition.variableDefinitions ?? []) {
        const name = variable.name.value;
        const inputType = typeFromAST(schema, type);
        const value = Object.hasOwn(given.variables, name) ? given.variables[name] : undefined;
        const node =
          value === undefined
            ? defaultValue
            : inputType && isInputType(inputType)
              ? literalOf(value, inputType)
              : undefined;
        if (!node) return undefined;
        values.set(name, node);
      }
  if (!values.size) return undefined;
  const inlined = visit(document, {
    VariableDefinition: () => null,
    Variable: (node) => values.get(node.name.value),
  });
  return { query: print(inlined), variables: {}, operationName: given.operationName };
}

/**
 * A value written as a literal of its input type, as a caller would write it; a custom scalar's object or list
 * (a JSONObject) as the plain literal graphql-js's astFromValue will not make. Undefined when it cannot be.
 */
function literalOf(value: unknown, type: GraphQLInputType): ValueNode | undefined {
  if (isNonNullType(type)) return value === null ? undefined : literalOf(value, type.ofType);
  if (value === null) return { kind: Kind.NULL };
  if (isListType(type)) {
    const items = (Array.isArray(value) ? value : [value]).map((item) => literalOf(item, type.ofType));
    return items.every(Boolean) ? { kind: Kind.LIST, values: items as ValueNode[] } : undefined;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== "object") return undefined;
    const fields = type.getFields();
    const written = Object.entries(value as Record<string, unknown>).map(([name, inner]) => {
      const field = fields[name];
      const node = field && literalOf(inner, field.type);
      return node && { kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: name }, value: node };
    });
    return written.every(Boolean) ? { kind: Kind.OBJECT, fields: written as ObjectFieldNode[] } : undefined;
  }
  if (isScalarType(type) && typeof value === "object") return untypedLiteral(value);
  try {
    return astFromValue(value, type) ?? undefined;
  } catch {
    return undefined;
  }
}

function untypedLiteral(value: unknown): ValueNode {
  if (value === null) return { kind: Kind.NULL };
  if (Array.isArray(value)) return { kind: Kind.LIST, values: value.map(untypedLiteral) };
  if (typeof value === "object")
    return {
      kind: Kind.OBJECT,
      fields: Object.entries(value).map(([name, inner]) => ({
        kind: Kind.OBJECT_FIELD,
        name: { kind: Kind.NAME, value: name },
        value: untypedLiteral(inner),
      })),
    };
  if (typeof value === "boolean") return { kind: Kind.BOOLEAN, value };
  if (typeof value === "number")
    return Number.isInteger(value)
      ? { kind: Kind.INT, value: String(value) }
      : { kind: Kind.FLOAT, value: String(value) };
  return { kind: Kind.STRING, value: String(value) };
}

/** Scalar literals inside argument values (a list, an input object, a JSONObject) sent as variables instead. */
function liftLiterals(schema: GraphQLSchema, document: DocumentNode, given: Case): Case | undefined {
  const typeInfo = new TypeInfo(schema);
  const variables: Variables = { ...given.variables };
  const definitions: VariableDefinitionNode[] = [];
  let depth = 0;
  const lift = (node: ValueNode): ValueNode | undefined => {
    if (depth === 0) return undefined;
    const name = `lifted${definitions.length}`;
    const inputType = typeInfo.getInputType();
    // Inside a custom scalar's literal no type is known: any scalar type holds the value.
    const typeName = inputType
      ? String(inputType)
      : ({ IntValue: "Int", FloatValue: "Float", BooleanValue: "Boolean" }[node.kind as string] ?? "String");
    variables[name] = valueFromASTUntyped(node);
    definitions.push(variableDefinition(name, typeName));
    return { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } };
  };
  const nested = { enter: () => void depth++, leave: () => void depth-- };
  const lifted = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Directive: () => false,
      ListValue: nested,
      ObjectValue: nested,
      StringValue: lift,
      IntValue: lift,
      FloatValue: lift,
      BooleanValue: lift,
      EnumValue: (node) => (typeInfo.getInputType() ? lift(node) : undefined),
    }),
  );
  if (!definitions.length) return undefined;
  const withDefinitions = mapOperation(lifted, given.operationName, (operation) => ({
    ...operation,
    variableDefinitions: [...(operation.variableDefinitions ?? []), ...definitions],
  }));
  return { query: print(withDefinitions), variables, operationName: given.operationName };
}

function variableDefinition(name: string, typeName: string): VariableDefinitionNode {
  return {
    kind: Kind.VARIABLE_DEFINITION,
    variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } },
    type: parseType(typeName),
  };
}

/** Each variable sent made the default of its definition instead, and not sent. */
function defaultsForVariables(schema: GraphQLSchema, document: DocumentNode, given: Case): Case | undefined {
  const left: Variables = { ...given.variables };
  let changed = false;
  const defaulted = mapOperation(document, given.operationName, (operation) => ({
    ...operation,
    variableDefinitions: operation.variableDefinitions?.map((definition) => {
      const name = definition.variable.name.value;
      const type = typeFromAST(schema, definition.type);
      const value = left[name];
      if (value === undefined || value === null || !type || !isInputType(type)) return definition;
      const defaultValue = literalOf(value, type);
      if (!defaultValue) return definition;
      delete left[name];
      changed = true;
      return { ...definition, defaultValue: defaultValue as VariableDefinitionNode["defaultValue"] };
    }),
  }));
  return changed ? { query: print(defaulted), variables: left, operationName: given.operationName } : undefined;
}

/** The operation's selections moved into a named fragment, and every nested selection into an inline one. */
function fragments(schema: GraphQLSchema, document: DocumentNode, given: Case): Case | undefined {
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION &&
      (given.operationName === undefined || definition.name?.value === given.operationName),
  );
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;
  const wrapped = visit(operation.selectionSet, {
    SelectionSet: {
      leave: (node: SelectionSetNode): SelectionSetNode => ({
        ...node,
        selections: [{ kind: Kind.INLINE_FRAGMENT, selectionSet: node }],
      }),
    },
  });
  const name = { kind: Kind.NAME, value: "DifferentialRoot" } as const;
  const moved: DocumentNode = {
    ...document,
    definitions: [
      ...mapOperation(document, given.operationName, (own) => ({
        ...own,
        selectionSet: { kind: Kind.SELECTION_SET, selections: [{ kind: Kind.FRAGMENT_SPREAD, name }] },
      })).definitions,
      {
        kind: Kind.FRAGMENT_DEFINITION,
        name,
        typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: root.name } },
        selectionSet: wrapped,
      },
    ],
  };
  return { query: print(moved), variables: given.variables, operationName: given.operationName };
}

/** Every field under an alias of its own. */
function aliases(document: DocumentNode, given: Case): Case {
  const aliased = visit(document, {
    Field: (node: FieldNode) =>
      node.alias ? undefined : { ...node, alias: { kind: Kind.NAME, value: `as_${node.name.value}` } },
  });
  return { query: print(aliased), variables: given.variables, operationName: given.operationName };
}

/** @include and @skip on every field: kept by a literal or a variable, and one field of each selection dropped. */
function directives(document: DocumentNode, given: Case): Case {
  const condition = (name: "include" | "skip", value: ValueNode): DirectiveNode => ({
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: name },
    arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "if" }, value } as ArgumentNode],
  });
  const hidden = { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: "differentialHidden" } } as const;
  let fields = 0;
  const directed = visit(document, {
    Field: (node: FieldNode) => ({
      ...node,
      directives: [
        ...(node.directives ?? []),
        ++fields % 2 ? condition("include", { kind: Kind.BOOLEAN, value: true }) : condition("skip", hidden),
      ],
    }),
    SelectionSet: {
      leave: (node: SelectionSetNode): SelectionSetNode =>
        node.selections.length > 1
          ? {
              ...node,
              selections: node.selections.map((selection, index) =>
                index === node.selections.length - 1 && selection.kind === Kind.FIELD
                  ? {
                      ...selection,
                      directives: [
                        ...(selection.directives ?? []),
                        condition("include", { kind: Kind.BOOLEAN, value: false }),
                      ],
                    }
                  : selection,
              ),
            }
          : node,
    },
  });
  const declared = mapOperation(directed, given.operationName, (operation) => ({
    ...operation,
    variableDefinitions: [
      ...(operation.variableDefinitions ?? []),
      variableDefinition("differentialHidden", "Boolean!"),
    ],
  }));
  return {
    query: print(declared),
    variables: { ...given.variables, differentialHidden: false },
    operationName: given.operationName,
  };
}

/** The case as sent, and its variants. */
function casesOf(schema: GraphQLSchema, sent: SentOperation): Case[] {
  const given: Case = {
    query: sent.query,
    variables: sent.variables ?? {},
    ...(sent.operationName && { operationName: sent.operationName }),
  };
  let document: DocumentNode;
  try {
    document = parse(given.query);
  } catch {
    return [];
  }
  const inlined = inlineVariables(schema, document, given);
  const variants = [
    inlined,
    // Literals sent as variables again, now also from inside the values callers sent as variables.
    inlined && liftLiterals(schema, parse(inlined.query), inlined),
    liftLiterals(schema, document, given),
    defaultsForVariables(schema, document, given),
    fragments(schema, document, given),
    aliases(document, given),
    directives(document, given),
  ];
  return [given, ...variants.filter((variant): variant is Case => variant !== undefined)];
}

interface Tally {
  compared: number;
  compiled: number;
  mismatches: { query: string; variables: Variables; differs: string; graphqlJs: unknown; gateway: unknown }[];
}

async function compare(schema: GraphQLSchema, operations: SentOperation[]): Promise<Tally> {
  const gatewayExecute = compiledExecution(schema);
  const tally: Tally = { compared: 0, compiled: 0, mismatches: [] };
  for (const sent of operations) {
    for (const { query, variables, operationName } of casesOf(schema, sent)) {
      let document: DocumentNode;
      try {
        document = parse(query);
      } catch {
        continue;
      }
      // What the server refuses before running anything, neither executor sees.
      if (validate(schema, document, [...specifiedRules, refuseCompilerMarkers]).length) continue;
      const operation = document.definitions.find(
        (definition): definition is OperationDefinitionNode =>
          definition.kind === Kind.OPERATION_DEFINITION &&
          (operationName === undefined || definition.name?.value === operationName),
      );
      if (!operation) continue;
      const args = { schema, document, operationName, variableValues: variables, contextValue: {} };
      const graphqlJs = await execute(args);
      const gateway = await gatewayExecute({ ...args, operation });
      tally.compared++;
      if (compilesExactly(schema, document)) tally.compiled++;
      const differs = difference(graphqlJs, gateway);
      if (differs) tally.mismatches.push({ query, variables, differs, graphqlJs, gateway });
    }
  }
  return tally;
}

/** A value with each leaf replaced by its kind: operations that differ only in ids and amounts look alike. */
function shapeOf(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value === null ? null : typeof value;
  if (Array.isArray(value)) return value.map(shapeOf);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]));
}

/** The operations sent, each text with at most a few of its variables' shapes: the suite repeats most of them. */
function distinctOperations(sent: SentOperation[], perText = 3): SentOperation[] {
  const kept = new Map<string, Set<string>>();
  return sent.filter((operation) => {
    const text = `${operation.endpoint} ${operation.operationName ?? ""} ${operation.query}`;
    const shapes = kept.get(text) ?? new Set();
    kept.set(text, shapes);
    const shape = stable(shapeOf(operation.variables ?? {}));
    if (shapes.has(shape) || shapes.size >= perText) return false;
    shapes.add(shape);
    return true;
  });
}

describe("the gateway's GraphQL executor answers as graphql-js does", () => {
  const sent = distinctOperations(recordedOperations());

  // Each case compiles a document of its own: some ten thousand compilations.
  it("over every operation the suite sent, and variants of each", { timeout: 180_000 }, async () => {
    // The suite sends hundreds: far fewer means the clients stopped writing them down.
    expect(sent.length, "operations written down by the suite (run it whole: npm test)").toBeGreaterThan(300);
    const schemas = {
      graphql: deterministic(await buildGraphQLSchema()),
      admin: deterministic(await buildAdminGraphQLSchema()),
    };
    const tallies = await Promise.all(
      (["graphql", "admin"] as const).map((endpoint) =>
        compare(
          schemas[endpoint],
          sent.filter((operation) => operation.endpoint === endpoint),
        ),
      ),
    );
    const compared = tallies.reduce((sum, tally) => sum + tally.compared, 0);
    const compiled = tallies.reduce((sum, tally) => sum + tally.compiled, 0);
    console.info(`${sent.length} operations sent, ${compared} cases compared, ${compared - compiled} on graphql-js`);
    expect(tallies.flatMap((tally) => tally.mismatches).slice(0, 5)).toEqual([]);
    // Most run compiled; those that cannot (a variable inside a JSONObject literal) were among them.
    expect(compiled / compared).toBeGreaterThan(0.8);
    expect(compiled).toBeLessThan(compared);
  });
});
