import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyInstance } from "fastify";
import {
  specifiedRules,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocket, WebSocketServer } from "ws";
import type { App } from "../app.js";
import { normalizeHeaderNames } from "../auth/authenticate.js";
import { principalProfileId, revocationTags, type Principal } from "../auth/principal.js";
import { AppError, errorBody } from "../errors.js";
import type { RateLimits } from "../rate-limits/limiter.js";
import { managedProfileSelector } from "../rest/http.js";
import type { Execute } from "./compiled-execution.js";
import type { GraphQLContext } from "./context.js";
import { documentChecker } from "./document-cache.js";
import { formatGraphQLError, toGraphQLError } from "./errors.js";
import { GraphQLLoaders } from "./loaders.js";
import { checkOperation, resolveOperation } from "./operation-checks.js";
import { endSubscription, sharedSubscribe, type GroupedSubscriber } from "./shared-execution.js";
import { audienceKey } from "./subscriptions.js";

/** The largest WebSocket message read (connection_init included): a larger one closes the socket (1009). */
const MAX_WS_MESSAGE_BYTES = 64 * 1024;
/** Subscriptions one WebSocket connection may hold at once. */
const MAX_SUBSCRIPTIONS_PER_CONNECTION = 50;
/** What a subscriber's socket may hold unsent (a client that stopped reading): past it, its subscription ends. */
const MAX_UNSENT_SUBSCRIPTION_BYTES = 256 * 1024;

/** A connection's own state: who it speaks for since connection_init, and whether that still holds. */
type Connection = {
  principal?: Principal;
  /** Why connection_init's credentials were refused, or why they stopped holding: every operation gets it. */
  refusal?: AppError;
  /** The client's address, as Fastify tells it for HTTP requests (X-Forwarded-For only behind a trusted proxy). */
  address: string;
  /** Ends the connection's running subscriptions with an error (its credentials stopped holding). */
  endSubscriptions?: (error: AppError) => void;
  /** Stops watching the bus and the clock for this connection's credentials. */
  forget?: () => void;
};

const NO_LONGER_VALID = () =>
  new AppError("AUTHENTICATION_REQUIRED", "The credential of this connection is no longer valid.");

/**
 * GraphQL over WebSocket (graphql-ws) on the HTTP server's port at /graphql. Every operation is held to the rules
 * of an HTTP request: the same per-IP and per-caller budgets (the upgrade counts per IP too), its caller checked
 * again (a revoked key, an ended sign-in or an expired token refuses it), then the same document, @auth and
 * list-size checks. A connection whose credentials stop holding has its subscriptions ended at once, on every
 * instance (the bus carries the revocation), not at their next event.
 */
export function serveGraphQLWebSocket(
  server: FastifyInstance,
  app: App,
  {
    schema,
    execute,
    validationRules,
    maxTokens,
    limits,
  }: {
    schema: GraphQLSchema;
    execute: Execute;
    validationRules: readonly ValidationRule[];
    maxTokens: number;
    limits: RateLimits;
  },
): void {
  const { graphql, trustProxy } = app.config;
  const addressOf = (request: IncomingMessage) => proxyAddr(request, () => trustProxy);
  const sockets = new WebSocketServer({
    server: server.server,
    path: "/graphql",
    maxPayload: MAX_WS_MESSAGE_BYTES,
    // The upgrade is a request of its client's address, as any other: past the budget, 429 before any socket.
    verifyClient: ({ req }, accept) => {
      try {
        limits.perIp.hit(addressOf(req));
        accept(true);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const body = JSON.stringify({ error: errorBody(error, randomUUID()) });
        accept(false, error.status, body, { "Content-Type": "application/json; charset=utf-8", ...error.headers });
      }
    },
  });
  const format = formatGraphQLError(app.log);
  const checkDocument = documentChecker(schema, [...specifiedRules, ...validationRules], maxTokens);
  // Subscribers of one caller running one operation share each event's execution, then get it on their own socket
  // under their own operation id, framed as graphql-ws frames a `next` message (see sharedSubscribe).
  const subscribers = new WeakMap<object, GroupedSubscriber>();
  const formatResult = (result: ExecutionResult): ExecutionResult | FormattedExecutionResult =>
    result.errors
      ? { ...result, errors: result.errors.map((error) => format(error, error.originalError ?? error)) }
      : result;
  // Each open socket's graphql-ws context, for the metrics to count its subscriptions when scraped.
  const contexts = new WeakMap<WebSocket, { subscriptions: Record<string, unknown> }>();
  app.metrics.countSubscribersWith(() => {
    let subscriptions = 0;
    for (const socket of sockets.clients) {
      // A subscription is null until it runs (and an operation that is no subscription stays null).
      for (const running of Object.values(contexts.get(socket)?.subscriptions ?? {})) if (running) subscriptions++;
    }
    return { connections: sockets.clients.size, subscriptions };
  });

  // The connections to check again when the bus says one of their credential's ids was invalidated.
  const watching = new Map<string, Set<Connection>>();
  const stopWatchingBus = app.bus.subscribe("cacheInvalidated", ({ tag }) => {
    const connections = watching.get(tag);
    if (!connections) return;
    // After every handler of this message has run: the caches it invalidates are read again.
    setImmediate(() => {
      for (const connection of connections) void recheck(connection);
    });
  });
  const recheck = async (connection: Connection) => {
    if (connection.refusal || !connection.principal) return;
    if (await app.authenticator.stillValid(connection.principal)) return;
    revoke(connection);
  };
  const revoke = (connection: Connection) => {
    if (connection.refusal) return;
    connection.refusal = NO_LONGER_VALID();
    connection.endSubscriptions?.(connection.refusal);
    connection.forget?.();
  };
  const watch = (connection: Connection, principal: Principal) => {
    const tags = revocationTags(principal);
    for (const tag of tags) {
      let connections = watching.get(tag);
      if (!connections) watching.set(tag, (connections = new Set()));
      connections.add(connection);
    }
    // An access token ends at its expiry, whether or not anything is said on the bus.
    const expiry =
      principal.kind === "session"
        ? setTimeout(() => revoke(connection), Math.max(0, principal.expiresAt.getTime() - Date.now())).unref()
        : undefined;
    connection.forget = () => {
      clearTimeout(expiry);
      for (const tag of tags) {
        const connections = watching.get(tag);
        connections?.delete(connection);
        if (connections?.size === 0) watching.delete(tag);
      }
    };
  };

  const wsServer = useServer<Record<string, unknown>, { connection: Connection }>(
    {
      execute,
      subscribe: sharedSubscribe(
        (args) => {
          const subscriber = subscribers.get(args.contextValue as object);
          // onSubscribe registers each subscription's subscriber before graphql-ws subscribes it.
          if (!subscriber) throw new Error("a subscription without its subscriber");
          return subscriber;
        },
        formatResult,
        execute,
      ),
      onConnect: async (ctx) => {
        contexts.set(ctx.extra.socket, ctx);
        const connection: Connection = {
          address: addressOf(ctx.extra.request),
          endSubscriptions: (error) => {
            for (const running of Object.values(ctx.subscriptions)) endSubscription(running, error);
          },
        };
        ctx.extra.connection = connection;
        try {
          connection.principal = await app.authenticator.authenticate(normalizeHeaderNames(ctx.connectionParams));
          watch(connection, connection.principal);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          connection.refusal = error;
        }
        return true;
      },
      onClose: (ctx) => ctx.extra.connection?.forget?.(),
      // Parse, validate and authorize here, as Apollo does over HTTP, so the root fields' @auth is
      // checked before variables are coerced.
      onSubscribe: async (ctx, id, payload) => {
        // graphql-ws takes no operation before connection_init is done.
        const connection = ctx.extra.connection;
        if (!connection) throw new Error("an operation before its connection was set up");
        const principal = connection.principal ?? { kind: "anonymous" as const };
        const refuse = (error: AppError) => [toGraphQLError(error)];
        if (connection.refusal) return refuse(connection.refusal);
        // graphql-ws counts this subscription already.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          return refuse(
            new AppError(
              "VALIDATION_FAILED",
              `A connection holds at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions at once.`,
            ),
          );
        }
        try {
          // Every operation is a request of its client's address and of its caller, as over HTTP.
          limits.perIp.hit(connection.address);
          const caller = principalProfileId(principal);
          if (caller) limits.perCaller.hit(caller);
        } catch (error) {
          if (error instanceof AppError) return refuse(error);
          throw error;
        }
        if (!(await app.authenticator.stillValid(principal))) {
          revoke(connection);
          return refuse(connection.refusal!);
        }
        const { document, refusals } = checkDocument(payload.query);
        if (refusals) return refusals.map((message) => toGraphQLError(new AppError("VALIDATION_FAILED", message)));
        const contextValue: GraphQLContext = {
          app,
          principal,
          selector: managedProfileSelector(normalizeHeaderNames(ctx.connectionParams)),
          requestId: randomUUID(),
          clientAddress: connection.address,
          enforceSignInLimit: () => limits.signIn.hit(connection.address),
          loaders: new GraphQLLoaders(app),
        };
        let operation;
        try {
          operation = resolveOperation(document, payload.operationName);
          checkOperation(
            schema,
            { document, operation, variables: payload.variables ?? undefined },
            contextValue,
            graphql.maxListItems,
          );
        } catch (error) {
          if (error instanceof AppError) return refuse(error);
          throw error;
        }
        const socket = ctx.extra.socket;
        const frame = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
        subscribers.set(contextValue, {
          group: JSON.stringify([
            payload.query,
            payload.operationName ?? null,
            payload.variables ?? null,
            audienceKey(contextValue.principal, contextValue.selector),
          ]),
          send: (result) => {
            if (socket.bufferedAmount > MAX_UNSENT_SUBSCRIPTION_BYTES) return false;
            // A closing socket ends its subscriptions through graphql-ws; meanwhile nothing more is sent.
            if (socket.readyState === WebSocket.OPEN) socket.send(`${frame}${result}}`);
            return true;
          },
        });
        return {
          schema,
          document,
          operation,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) => formatResult(result),
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((error: GraphQLError) => format(error, error.originalError ?? error)),
    },
    sockets,
  );
  // A socket's errors are its client's (a message over the limit, a reset): ws closes it (1009 for the size),
  // so it is logged as such, not as graphql-ws's "internal error" on standard error.
  sockets.on("connection", (socket) => {
    socket.removeAllListeners("error");
    socket.on("error", (error) => app.log.info({ err: error }, "WebSocket connection closed on a client error"));
  });
  server.addHook("preClose", async () => {
    stopWatchingBus();
    await wsServer.dispose();
    await new Promise<void>((resolve) => sockets.close(() => resolve()));
  });
}
