import { profileView } from "../../profiles/types.js";
import { described, enumOf } from "./enums.js";
import { outputType, registerGraphQLEnum } from "./output-type.js";

registerGraphQLEnum(enumOf(["bearer"] as const), {
  name: "TokenType",
  description: "How an access token is sent (REST spells BEARER as bearer).",
  valuesConfig: described({ BEARER: "As `Authorization: Bearer <token>`." }),
});

export const Profile = outputType(profileView);
