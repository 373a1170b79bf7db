import { z } from "zod";
import { named, outputObject } from "../../output.js";
import { CORRIDORS } from "../../reference-data/corridors.js";
import { recipientCorridorEligibilityShape } from "../../recipients/types.js";
import { outputType } from "./output-type.js";

/** GraphQL lists a recipient's corridors, each naming itself, where REST keys them by corridor. */
export const RecipientCorridorEligibility = outputType(
  outputObject("RecipientCorridorEligibility", "Whether a recipient can receive payouts in a corridor now.", {
    corridor: named("Corridor", z.enum(CORRIDORS)).describe(
      "The corridor this answer is about; the list holds every corridor.",
    ),
    ...recipientCorridorEligibilityShape,
  }),
);
