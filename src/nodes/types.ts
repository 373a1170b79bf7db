/** The kinds of object that have a lookup of their own by id, which `NodeService.kindOf` tells apart. */
export type NodeKind = "ramp" | "quote" | "managedProfile";
