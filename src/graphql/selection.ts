import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";

/**
 * Whether the operation asks, below the field being resolved, for the field at `path` (through fragments
 * too; `@skip`/`@include` are not evaluated, so a skipped field counts as asked for). A list resolver reads
 * what its items need in one go when they need it, instead of a promise per item.
 */
export function selects(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  const within = (selectionSet: SelectionSetNode | undefined, depth: number): boolean =>
    !!selectionSet?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== path[depth]) return false;
        return depth === path.length - 1 || within(selection.selectionSet, depth + 1);
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
      return within(fragment?.selectionSet, depth);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet, 0));
}
