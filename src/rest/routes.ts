import type { FastifyPluginAsync } from "fastify";
import type { App } from "../app.js";
import { adminRoutes } from "./v1/admin.js";
import { apiCredentialRoutes } from "./v1/api-credentials.js";
import { authRoutes } from "./v1/auth.js";
import { customerRoutes } from "./v1/customers.js";
import { domesticFileRoutes } from "./v1/domestic-files.js";
import { fiatAccountRoutes } from "./v1/fiat-accounts.js";
import { managedProfileRoutes } from "./v1/managed-profiles.js";
import { onboardingRoutes } from "./v1/onboarding.js";
import { partnerCallbackRoutes } from "./v1/partner-callbacks.js";
import { publicKeyRoutes } from "./v1/public-key.js";
import { quoteRoutes } from "./v1/quotes.js";
import { rampRoutes } from "./v1/ramps.js";
import { recipientRoutes } from "./v1/recipients.js";
import { referenceDataRoutes } from "./v1/reference-data.js";
import { uploadRoutes } from "./v1/uploads.js";
import { webhookRoutes } from "./v1/webhooks.js";

/** The REST `/v1` shims. */
export const restRoutes: FastifyPluginAsync<{ app: App }> = async (server, { app }) => {
  authRoutes(server, app, app.rateLimits.signIn);
  apiCredentialRoutes(server, app);
  managedProfileRoutes(server, app);
  adminRoutes(server, app);
  referenceDataRoutes(server, app);
  publicKeyRoutes(server, app);
  quoteRoutes(server, app);
  rampRoutes(server, app);
  onboardingRoutes(server, app);
  webhookRoutes(server, app);
  fiatAccountRoutes(server, app);
  customerRoutes(server, app);
  await uploadRoutes(server, app);
  await domesticFileRoutes(server, app);
  recipientRoutes(server, app);
  await partnerCallbackRoutes(server, app);
};
