import { z } from "zod";
import { idInput } from "../output.js";
import { apiCredentialList } from "../credentials/types.js";
import type { ManagerPolicy } from "../auth/delegation.js";
import {
  createdManagedProfile,
  createManagedProfileInput,
  listManagedProfilesInput,
  managedProfileView,
} from "../managed-profiles/types.js";
import { listPage, uuid } from "../validation.js";
import { defineOperation, type Gate } from "./operation.js";

const LIFECYCLE = { requires: ["MANAGED_PROFILES"], delegation: "MANAGER_ONLY" } as const;
const CHILDREN = { requires: ["MANAGE_CHILD_CREDENTIALS"], delegation: "MANAGER_ONLY" } as const;

/** The caller is an active manager: checked before any of the input is validated (403 before 400). */
const activeManager: Gate<ManagerPolicy> = {
  check: (app, acting) => app.managedProfiles.activeManager(acting.actorProfileId),
};

export const createManagedProfile = defineOperation({
  name: "createManagedProfile",
  summary: "Create a managed child profile; an identical retry returns the existing one",
  access: LIFECYCLE,
  gate: activeManager,
  input: createManagedProfileInput,
  output: createdManagedProfile,
  run: (app, _acting, child, manager) => app.managedProfiles.create(manager, child),
});

export const listManagedProfiles = defineOperation({
  name: "listManagedProfiles",
  summary: "List the caller's managed children, newest first",
  access: LIFECYCLE,
  gate: activeManager,
  input: listManagedProfilesInput,
  run: (app, _acting, page, manager) => app.managedProfiles.list(manager, page),
});

export const getManagedProfile = defineOperation({
  name: "getManagedProfile",
  summary: "Get one of the caller's managed children, active or deleted; NOT_FOUND for any other profile",
  access: LIFECYCLE,
  input: z.object({ profileId: idInput("The child's profile id (UUID).") }),
  output: managedProfileView,
  run: (app, acting, { profileId }) => app.managedProfiles.get(acting.actorProfileId, profileId),
});

export const deleteManagedProfile = defineOperation({
  name: "deleteManagedProfile",
  summary: "Delete a managed child logically (idempotent); its credentials are revoked at once",
  access: LIFECYCLE,
  input: z.object({ profileId: idInput("The child's profile id (UUID).") }),
  run: (app, acting, { profileId }) => app.managedProfiles.delete(acting.actorProfileId, profileId),
});

export const listManagedProfileApiCredentials = defineOperation({
  name: "listManagedProfileApiCredentials",
  summary: "List a managed child's credentials",
  access: CHILDREN,
  input: listPage.extend({ profileId: uuid() }),
  output: apiCredentialList,
  run: (app, acting, { profileId, ...page }) =>
    app.managedProfiles.listCredentials(acting.actorProfileId, profileId, page),
});
