import { z } from "zod";
import { idInput } from "../output.js";
import { partnerCredentialInput } from "../admin/service.js";
import { apiCredentialList, createCredentialInput, issuedCredential } from "../credentials/types.js";
import { listPage } from "../validation.js";
import { defineOperation, defineOperatorOperation } from "./operation.js";

const OWN = { requires: ["OWN_CREDENTIALS"], delegation: "NONE" } as const;
const CHILDREN = { requires: ["MANAGE_CHILD_CREDENTIALS"], delegation: "MANAGER_ONLY" } as const;

export const createApiCredential = defineOperation({
  name: "createApiCredential",
  summary: "Create an API credential; its secret value is returned only here",
  access: OWN,
  input: createCredentialInput,
  output: issuedCredential,
  run: (app, acting, input) => app.credentials.create(acting.subjectProfileId, input),
});

export const listApiCredentials = defineOperation({
  name: "listApiCredentials",
  summary: "List the caller's API credentials, newest first, revoked and expired included",
  access: OWN,
  input: listPage,
  output: apiCredentialList,
  run: (app, acting, page) => app.credentials.list(acting.subjectProfileId, page),
});

export const revokeApiCredential = defineOperation({
  name: "revokeApiCredential",
  summary: "Revoke both values of an API credential at once",
  access: OWN,
  input: z.object({
    credentialId: idInput(
      "One of the caller's credentials; an unknown or already revoked one is CREDENTIAL_NOT_FOUND.",
    ),
  }),
  run: (app, acting, { credentialId }) => app.credentials.revoke(acting.subjectProfileId, credentialId),
});

export const createManagedProfileApiCredential = defineOperation({
  name: "createManagedProfileApiCredential",
  summary: "Issue a credential for a managed child; the secret is returned only here",
  access: CHILDREN,
  input: createCredentialInput.extend({
    profileId: idInput("The active child the credential authenticates (UUID)."),
  }),
  output: issuedCredential,
  run: (app, acting, { profileId, ...credential }) =>
    app.managedProfiles.createCredential(acting.actorProfileId, profileId, credential),
});

export const revokeManagedProfileApiCredential = defineOperation({
  name: "revokeManagedProfileApiCredential",
  summary: "Revoke a managed child's credential (idempotent)",
  access: CHILDREN,
  input: z.object({
    profileId: idInput("The active child the credential belongs to (UUID)."),
    credentialId: idInput("One of the child's credentials; revoking it again is no error."),
  }),
  run: (app, acting, { profileId, credentialId }) =>
    app.managedProfiles.revokeCredential(acting.actorProfileId, profileId, credentialId),
});

export const createPartnerApiCredential = defineOperatorOperation({
  name: "createPartnerApiCredential",
  summary: "Issue a partner-managed credential bound to one existing profile",
  input: partnerCredentialInput,
  output: issuedCredential,
  run: (app, operator, input) => app.admin.issuePartnerCredential(operator, input),
});
