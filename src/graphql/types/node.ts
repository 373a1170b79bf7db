import { Field, ID, InterfaceType } from "type-graphql";

/** The GraphQL type of each object node(id) answered, for Node's resolveType. */
const nodeTypes = new WeakMap<object, string>();

/** An object node(id) answers, as the GraphQL type the id was found to name. */
export function asNode<Value extends object>(typeName: string, value: Value): Value {
  nodeTypes.set(value, typeName);
  return value;
}

@InterfaceType({
  description:
    "An object with an id of its own that node(id) finds: the UUID the REST API uses for it, unique across types.",
  resolveType: (value: object) => nodeTypes.get(value),
})
export abstract class Node {
  @Field(() => ID, { description: "The object's id (UUID), the same as over REST." })
  id!: string;
}
