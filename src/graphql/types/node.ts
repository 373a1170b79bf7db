import { Field, ID, InterfaceType } from "type-graphql";

/** The GraphQL type of each object node(id) answered, for Node's resolveType. */
const nodeTypes = new WeakMap<object, string>();

/** The name of the GraphQL type of an object node(id) answered (Node's resolveType). */
export const nodeTypeName = (value: object): string | undefined => nodeTypes.get(value);

/** An object node(id) answers, as the GraphQL type the id was found to name. */
export function asNode<Value extends object>(typeName: string, value: Value): Value {
  nodeTypes.set(value, typeName);
  return value;
}

@InterfaceType({
  description:
    "An object with an id of its own that node(id) finds: the UUID the REST API uses for it, unique across types.",
  resolveType: nodeTypeName,
})
export abstract class Node {
  @Field(() => ID, { description: "The object's id (UUID), the same as over REST." })
  id!: string;
}
