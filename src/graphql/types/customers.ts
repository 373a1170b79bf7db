import { customerView } from "../../kyc/types.js";
import { outputType } from "./output-type.js";

export const Customer = outputType(customerView);
