import { webhookEventBody } from "../../events/outbox.js";
import { outputType } from "./output-type.js";

export const RampEvent = outputType(webhookEventBody);
