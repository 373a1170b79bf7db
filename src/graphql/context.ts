import type { App } from "../app.js";
import type { Principal } from "../auth/principal.js";
import type { GraphQLLoaders } from "./loaders.js";

/** What every resolver and subscription receives: the app, who is calling, and per-request batch loaders. */
export interface GraphQLContext {
  app: App;
  principal: Principal;
  /** X-Managed-Profile-Id as sent on the HTTP request or in the connection_init payload. */
  selector: string | undefined;
  requestId: string;
  /** Where the request came from (the WebSocket's peer for subscriptions and operations sent over it). */
  clientAddress: string;
  /** The per-IP sign-in rate limit (request-otp and verify-otp), shared with REST. */
  enforceSignInLimit(): void;
  /** Batch loaders, new for every request (see GraphQLLoaders). */
  loaders: GraphQLLoaders;
}
