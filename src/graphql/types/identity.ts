import { profileView } from "../../profiles/types.js";
import { outputType } from "./output-type.js";

export const Profile = outputType(profileView);
