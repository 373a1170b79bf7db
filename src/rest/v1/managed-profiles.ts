import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { App } from "../../app.js";
import { managerPolicyView, type ManagerPolicy } from "../../auth/delegation.js";
import { jsonSchema } from "../http.js";
import { pagination } from "../../output.js";
import { createManagedProfileApiCredential, revokeManagedProfileApiCredential } from "../../operations/credentials.js";
import {
  createManagedProfile,
  deleteManagedProfile,
  getManagedProfile,
  listManagedProfileApiCredentials,
  listManagedProfiles,
} from "../../operations/managed-profiles.js";
import { managedProfileView } from "../../managed-profiles/types.js";
import { operationRoute } from "../operation-route.js";
import { createdCredential, createdCredentialResource } from "./api-credentials.js";

/** The list envelope's policy object: what the manager may do, not its bookkeeping. */
const managerPolicy = managerPolicyView.pick({ profileId: true, allowedCorridors: true, allowedCustomerTypes: true });
const list = z.object({ managedProfiles: z.array(managedProfileView), pagination, manager: managerPolicy });

const managerEnvelope = (policy: ManagerPolicy) => ({
  profileId: policy.profileId,
  allowedCorridors: policy.allowedCorridors,
  allowedCustomerTypes: policy.allowedCustomerTypes,
});

/** A manager's headless children and their credentials (CONTRACT.md, Managed profiles). */
export function managedProfileRoutes(server: FastifyInstance, app: App) {
  const tags = ["Managed profiles"];

  operationRoute(server, app, createManagedProfile, {
    method: "POST",
    url: "/v1/managed-profiles",
    tags,
    status: 201,
    // An identical retry answers the existing child.
    alternative: { status: 200, when: ({ created }) => !created },
    errors: [400, 401, 403, 409],
    wire: { only: ["managedProfile"] },
  });

  operationRoute(server, app, listManagedProfiles, {
    method: "GET",
    url: "/v1/managed-profiles",
    tags,
    response: jsonSchema(list),
    errors: [400, 401, 403],
    reply: (page) => ({ ...page, manager: managerEnvelope(page.manager) }),
  });

  operationRoute(server, app, getManagedProfile, {
    method: "GET",
    url: "/v1/managed-profiles/:profileId",
    tags,
    envelope: "managedProfile",
    errors: [401, 403, 404],
  });

  operationRoute(server, app, deleteManagedProfile, {
    method: "DELETE",
    url: "/v1/managed-profiles/:profileId",
    tags,
    status: 204,
    response: null,
    errors: [401, 403, 404],
  });

  operationRoute(server, app, createManagedProfileApiCredential, {
    method: "POST",
    url: "/v1/managed-profiles/:profileId/api-credentials",
    tags,
    status: 201,
    response: jsonSchema(createdCredentialResource),
    errors: [400, 401, 403, 404, 409],
    reply: createdCredential,
  });

  operationRoute(server, app, listManagedProfileApiCredentials, {
    method: "GET",
    url: "/v1/managed-profiles/:profileId/api-credentials",
    tags,
    errors: [400, 401, 403, 404],
  });

  operationRoute(server, app, revokeManagedProfileApiCredential, {
    method: "DELETE",
    url: "/v1/managed-profiles/:profileId/api-credentials/:credentialId",
    tags,
    status: 204,
    response: null,
    errors: [401, 403, 404],
  });
}
