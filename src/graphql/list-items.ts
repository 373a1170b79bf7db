import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type FieldNode,
} from "graphql";
import { AppError } from "../errors.js";

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/**
 * The page size a paged field (one with a `first` argument) asks for, as its resolver will see it: graphql-js's
 * own reading of the arguments, with the variables as coerced (a variable left out takes its default, or leaves
 * the argument's).
 */
function pageSizeOf(field: GraphQLField<unknown, unknown>, node: FieldNode, walk: Walk): number | undefined {
  if (!field.args.some((arg) => arg.name === "first")) return undefined;
  let first;
  try {
    ({ first } = getArgumentValues(field, node, walk.variables));
  } catch (error) {
    // Arguments graphql-js refuses (a null variable for a non-null argument with a default) fail the field as
    // it runs, before its resolver: such a page holds nothing.
    if (error instanceof GraphQLError) return 0;
    throw error;
  }
  return typeof first === "number" ? Math.max(0, first) : 0;
}

/** Items a selection set may return when `times` copies of it are asked for, nested pages multiplied. */
function itemsOf(selectionSet: SelectionSetNode, parent: GraphQLCompositeType, times: number, walk: Walk): number {
  let items = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const field =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) continue;
      const pageSize = pageSizeOf(field, selection, walk);
      const copies = pageSize === undefined ? times : times * pageSize;
      if (pageSize !== undefined) items += copies;
      const type = getNamedType(field.type);
      if (selection.selectionSet && isCompositeType(type)) items += itemsOf(selection.selectionSet, type, copies, walk);
    } else {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      const condition = fragment.typeCondition ? walk.schema.getType(fragment.typeCondition.name.value) : parent;
      if (condition && isCompositeType(condition)) items += itemsOf(fragment.selectionSet, condition, times, walk);
    }
  }
  return items;
}

/**
 * Counts of operations that declare no variables, by operation node: such a count never changes, and the
 * servers keep one parsed document per query text, so a repeated query is not walked again.
 */
const fixedCounts = new WeakMap<OperationDefinitionNode, number>();

/**
 * Refuses an operation whose pages could hold more than `maxItems` items in all, pages within pages
 * multiplied (`webhooks(first: 100) { deliveries(first: 100) }` is 10,100). A static cost cannot see page
 * sizes, which come from arguments and variables, so this runs once the operation and its variables are known.
 */
export function refuseLargeLists(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
  maxItems: number,
): void {
  const fixed = !operation.variableDefinitions?.length;
  let items = fixed ? fixedCounts.get(operation) : undefined;
  if (items === undefined) {
    const root = schema.getRootType(operation.operation);
    // Variables the operation's definitions refuse are refused by its execution, before anything runs.
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
    if (!root || coerced.errors) return;
    const fragments = new Map(
      document.definitions
        .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    );
    items = itemsOf(operation.selectionSet, root, 1, { schema, fragments, variables: coerced.coerced });
    if (fixed) fixedCounts.set(operation, items);
  }
  if (items > maxItems)
    throw new AppError(
      "VALIDATION_FAILED",
      `The operation's pages could hold ${items} items in all, over the limit of ${maxItems}: ask for smaller pages (first).`,
    );
}
