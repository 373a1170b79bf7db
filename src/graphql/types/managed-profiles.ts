import { corridorEnum, customerTypeEnum } from "../../reference-data/corridors.js";
import { managedProfileView, type ManagedProfileView } from "../../managed-profiles/types.js";
import { Node } from "./node.js";
import { graphqlEnum, outputType } from "./output-type.js";

export const CorridorEnum = graphqlEnum(corridorEnum);
export const CustomerTypeEnum = graphqlEnum(customerTypeEnum);

export const ManagedProfile = outputType(managedProfileView, { implements: [Node] });
export type ManagedProfile = ManagedProfileView;
