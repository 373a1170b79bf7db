import { rampDirectionEnum } from "../../quotes/types.js";
import { graphqlEnum } from "./output-type.js";

export const RampDirectionEnum = graphqlEnum(rampDirectionEnum);
