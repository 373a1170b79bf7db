import { otpSent } from "../../identity/types.js";
import { profileView } from "../../profiles/types.js";
import { outputType } from "./output-type.js";

export const RequestOtpPayload = outputType(otpSent);
export const Profile = outputType(profileView);
