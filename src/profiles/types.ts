import { z } from "zod";
import { idField, instantField, outputObject } from "../output.js";

export const profileView = outputObject("Profile", "The calling profile.", {
  id: idField("The profile's id (UUID)."),
  email: z
    .string()
    .nullable()
    .describe("The sign-in email, trimmed and lower-cased; null for a managed child, which never signs in."),
  createdAt: instantField("When the profile was created: at first sign-in, or by its manager."),
  updatedAt: instantField("When the profile record last changed."),
});
export type ProfileView = z.output<typeof profileView>;
