import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from "@as-integrations/fastify";
import { ApolloArmor } from "@escape.tech/graphql-armor";
import cors from "@fastify/cors";
import swagger from "@fastify/swagger";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyContextConfig,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from "fastify";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { App } from "./app.js";
import { DELEGATION_RULES } from "./auth/delegation.js";
import { principalProfileId, type Principal } from "./auth/principal.js";
import { AppError, errorBody } from "./errors.js";
import { LazyChildLogger, logResponse, withRequestSerializer } from "./log.js";
import type { RateLimits } from "./rate-limits/limiter.js";
import type { GraphQLContext } from "./graphql/context.js";
import { registerGraphiQLAssets, sendGraphiQLToBrowsers } from "./graphql/graphiql.js";
import { operationChecks } from "./graphql/operation-checks.js";
import {
  compiledExecution,
  apolloExecution,
  refuseCompilerMarkers,
  type Execute,
} from "./graphql/compiled-execution.js";
import { formatGraphQLError, toGraphQLError } from "./graphql/errors.js";
import { createLoaders } from "./graphql/loaders.js";
import { serveGraphQLWebSocket } from "./graphql/websocket.js";
import { buildAdminGraphQLSchema, buildGraphQLSchema } from "./graphql/schema.js";
import {
  documentedAccess,
  ERROR_RESPONSE_SCHEMA,
  managedProfileSelector,
  PARTNER_SIGNATURE_SCHEMES,
  presentedPublicKeys,
  rawBodyOf,
  sentBody,
} from "./rest/http.js";
import { metricsRoute } from "./rest/metrics.js";
import { writeResponsesAtTurnEnd } from "./rest/batched-writes.js";
import { sharedSerializers } from "./rest/serializers.js";
import { statusPageRoutes } from "./rest/status-page.js";
import { adminRoutes } from "./rest/v1/admin.js";
import { managedProfileRoutes } from "./rest/v1/managed-profiles.js";
import { apiCredentialRoutes } from "./rest/v1/api-credentials.js";
import { authRoutes } from "./rest/v1/auth.js";
import { customerRoutes } from "./rest/v1/customers.js";
import { domesticFileRoutes } from "./rest/v1/domestic-files.js";
import { fiatAccountRoutes } from "./rest/v1/fiat-accounts.js";
import { onboardingRoutes } from "./rest/v1/onboarding.js";
import { partnerCallbackRoutes } from "./rest/v1/partner-callbacks.js";
import { publicKeyRoutes } from "./rest/v1/public-key.js";
import { quoteRoutes } from "./rest/v1/quotes.js";
import { rampRoutes } from "./rest/v1/ramps.js";
import { recipientRoutes } from "./rest/v1/recipients.js";
import { uploadRoutes } from "./rest/v1/uploads.js";
import { referenceDataRoutes } from "./rest/v1/reference-data.js";
import { webhookRoutes } from "./rest/v1/webhooks.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ALLOWED_HEADERS = [
  "Content-Type",
  "Authorization",
  "X-API-Key",
  "X-Public-Key",
  "X-Managed-Profile-Id",
  "X-Request-ID",
  "Idempotency-Key",
];
const MAX_GRAPHQL_TOKENS = 1000;

/** Fastify errors raised before a handler runs, in the contract's table. */
function fastifyErrorToAppError(error: FastifyError): AppError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new AppError("PAYLOAD_TOO_LARGE");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("INVALID_JSON");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new AppError("VALIDATION_FAILED", "Content-Type must be application/json.", [
        { field: "Content-Type", message: "must be application/json" },
      ]);
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError("INVALID_JSON");
  return undefined;
}

/**
 * Builds the HTTP server: plugins, /v1 routes, Apollo at /graphql and graphql-ws on the same path.
 * No business logic lives here.
 */
export async function buildServer(app: App): Promise<FastifyInstance> {
  const { config } = app;
  const server = Fastify({
    // Fastify logs through the app's pino logger; the typings differ only on an optional field.
    loggerInstance: withRequestSerializer(app.log) as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // One line per request, written by the hooks below (logResponse), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    forceCloseConnections: "idle",
    // Refusals Fastify makes before routing answer in the envelope too, without echoing the path.
    frameworkErrors: (error, request, reply) => {
      void reply.header("X-Request-ID", request.id);
      replyWithError(
        error.code === "FST_ERR_MAX_PARAM_LENGTH"
          ? new AppError("VALIDATION_FAILED", "A path parameter is too long.")
          : new AppError("VALIDATION_FAILED", "The path is not a valid URL (check its percent-encoding)."),
        request,
        reply,
      );
    },
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
  });
  server.setChildLoggerFactory((logger, bindings) => new LazyChildLogger(logger as Logger, bindings));
  // Request bodies are validated by the services (zod, after authentication); route schemas document them.
  server.setValidatorCompiler(() => (data) => ({ value: data }));
  // Bodies are JSON only; anything else is refused as the wrong media type.
  server.removeContentTypeParser("text/plain");
  writeResponsesAtTurnEnd(server);

  // Hooks take a callback, not a promise, where they can (an async hook costs a promise per request), and a
  // route's rule is read from its options once, as the route is added: reading them per request
  // (request.routeOptions) builds a new object each time.

  // Every answered request in the request histogram and the log, by route pattern, never the raw URL (it holds
  // ids); requests no route matched are one series.
  server.addHook("onRoute", (route) => {
    const observe = app.metrics.requestObserver(route.url);
    route.onResponse = [
      ...hookList(route.onResponse),
      (request, reply, done) => {
        observe(request.method, reply.statusCode, reply.elapsedTime);
        logResponse(app.log, request, reply, route.url);
        done();
      },
    ];
  });
  const observeUnmatched = app.metrics.requestObserver(undefined);
  server.addHook("onResponse", (request, reply, done) => {
    if (request.is404) {
      observeUnmatched(request.method, reply.statusCode, reply.elapsedTime);
      logResponse(app.log, request, reply, undefined);
    }
    done();
  });

  server.addHook("onRequest", (request, reply, done) => {
    reply.header("X-Request-ID", request.id);
    done();
  });

  const limits = app.rateLimits;
  // Per client IP, before anything else runs but CORS (so a browser can read the 429): every route's first hook
  // of its own (CORS's preflight route included: this hook is added before the plugin), and every request no
  // route matched. Sign-in has its own, stricter limit, health checks none. Fastify answers what a hook throws
  // as it answers what the hook passes to done.
  const perIpLimit = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    limits.perIp.hit(request.ip);
    done();
  };
  // A partner's callbacks count in a budget of their own, per partner and client IP, in place of the per-IP one: a
  // partner's burst (its retries, a day's tickets) neither spends nor waits on the budget of callers behind the same
  // address, and a flood of forged ones is still cut here, before the body is read or any signature checked.
  const partnerCallbackLimit =
    (partner: string) => (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      limits.partnerCallbacks.hit(`${partner} ${request.ip}`);
      done();
    };
  server.addHook("onRoute", (route) => {
    if (route.config?.rateLimit === false) return;
    const partner = route.config?.partnerSignature;
    route.onRequest = [partner ? partnerCallbackLimit(partner) : perIpLimit, ...hookList(route.onRequest)];
  });

  // With no origin listed no browser may call and no answer varies by origin: the plugin, whose work on every
  // request (a Vary header, the origin check, two copies of the route's options) would change nothing, is not loaded.
  if (config.corsOrigins.length) {
    await server.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && config.corsOrigins.includes(origin)),
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: ["X-Request-ID", "Retry-After"],
      methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      maxAge: 600,
    });
  }

  /** The caller's own rate, the route's tasks and the acting context, for the principal decided. */
  const admit = async (request: FastifyRequest, principal: Principal, rule: FastifyContextConfig) => {
    request.principal = principal;
    // A caller's own rate is counted by the profile it speaks for, so all its keys and sign-ins share one budget.
    // A manager acting for a managed child presents its own key or session (the child is only named by
    // X-Managed-Profile-Id), so it spends the manager's budget; a child's own credential spends the child's. The
    // id is the cached credential's or session's own string: a key made per request would be hashed per request.
    const caller = principalProfileId(principal);
    if (caller) limits.perCaller.hit(caller);
    const { capabilities, delegation } = rule;
    if (!capabilities) return;
    const selector = app.delegation.checkCaller(principal, managedProfileSelector(request.headers), capabilities);
    // Every route with capabilities declares its delegation rule (checked as routes are added, below).
    request.acting = await app.delegation.resolve(principal, selector, delegation!);
  };

  // A public key presented in the body is known once the body is read: the principal is decided again from
  // every value presented. Only a caller that presented no key or session before can change (the others win
  // or mismatch), so one that stays is not admitted, nor counted, twice.
  const admitWithBody = async (request: FastifyRequest, rule: FastifyContextConfig, field: string) => {
    const inBody = presentedPublicKeys(sentBody(request), field);
    if (!inBody.length) return;
    const principal = await app.authenticator.authenticate(
      request.headers,
      [...presentedPublicKeys(request.query, field), ...inBody],
      request.raw.socket,
    );
    if (principalProfileId(principal) !== principalProfileId(request.principal)) await admit(request, principal, rule);
  };

  // Who is calling, whether the route's tasks allow it, and the caller's own rate: after the per-IP limit
  // (onRequest), before the body is read (so unauthenticated callers never see validation errors); only on the
  // routes that declare tasks (and /graphql, whose fields declare theirs). The routes that take a public key in
  // their body decide again once it is read.
  server.addHook("onRoute", (route) => {
    const rule = route.config ?? {};
    if (!rule.capabilities && !rule.graphql) return;
    const field = rule.publicKeyField;
    route.preParsing = [
      (request, _reply, payload, done) => {
        app.authenticator
          .authenticate(request.headers, presentedPublicKeys(request.query, field), request.raw.socket)
          .then((principal) => admit(request, principal, rule))
          .then(() => done(null, payload), done);
      },
      ...hookList(route.preParsing),
    ];
    if (field) {
      route.preValidation = [
        ...hookList(route.preValidation),
        (request, _reply, done) => {
          admitWithBody(request, rule, field).then(() => done(), done);
        },
      ];
    }
  });

  // Partner callbacks read no credential: the partner's signature over the body's bytes is verified once they are
  // read, before the handler. A partner without settings has no sender to expect: 404 before the body is read.
  server.addHook("onRoute", (route) => {
    const partner = route.config?.partnerSignature;
    if (!partner) return;
    route.onRequest = [
      ...hookList(route.onRequest),
      (_request, _reply, done) => {
        app.partnerCallbacks.requireConfigured(partner);
        done();
      },
    ];
    route.preValidation = [
      (request, _reply, done) => {
        const delivery = { rawBody: rawBodyOf(request), headers: request.headers };
        app.partnerCallbacks.verify(partner, delivery).then(() => done(), done);
      },
      ...hookList(route.preValidation),
    ];
  });

  server.setErrorHandler((error: FastifyError, request, reply) => replyWithError(error, request, reply));
  server.setNotFoundHandler({ preValidation: perIpLimit }, (request, reply) =>
    replyWithError(
      new AppError("NOT_FOUND", `No route ${request.method} ${request.url.split("?")[0]}.`),
      request,
      reply,
    ),
  );

  server.addSchema(ERROR_RESPONSE_SCHEMA);
  await server.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: "Ramp gateway REST API", version: "1" },
      servers: [{ url: "/", description: "This gateway" }],
      components: {
        securitySchemes: {
          BearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          SecretApiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
          PublicApiKey: { type: "apiKey", in: "header", name: "X-Public-Key" },
          OperatorToken: { type: "http", scheme: "bearer", description: "OPERATOR_TOKEN, on /v1/admin/* only" },
          [PARTNER_SIGNATURE_SCHEMES.Avenia]: {
            type: "apiKey",
            in: "header",
            name: "signature",
            description:
              "Avenia's webhooks only: base64 RSA-PSS/SHA-256 (MGF1 SHA-256, maximum salt) over the raw body, verified " +
              "with the key Avenia serves at GET /v2/public-key.",
          },
          [PARTNER_SIGNATURE_SCHEMES.Alfredpay]: {
            type: "apiKey",
            in: "header",
            name: "webhook-signature",
            description:
              "Alfredpay's callbacks only: Standard Webhooks, `v1,` and the base64 HMAC-SHA256 of " +
              "`webhook-id.webhook-timestamp.body` under the shared whsec_ secret; the timestamp within 5 minutes.",
          },
        },
      },
    },
    hideUntagged: true,
    // Shared schemas keep their own names in components (the error envelope is ErrorResponse).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Who may call each route is documented from the rule the server enforces, not written twice.
    transform: ({ schema, url, route }) => ({ url, schema: documentedAccess(schema, route.config) }),
  });

  // Deny by default: every route from here on says who may call it, or the server does not start. (Before
  // this point only plugins' own routes exist: CORS answers preflights, which carry no credentials.)
  server.addHook("onRoute", (route) => {
    const { capabilities, delegation, public: open, graphql, partnerSignature } = route.config ?? {};
    if (!capabilities?.length && !open && !graphql && !partnerSignature) {
      throw new Error(
        `${String(route.method)} ${route.url} declares no access rule (capabilities, a partner signature, or public: true)`,
      );
    }
    if (capabilities?.length && !delegation) {
      throw new Error(`${String(route.method)} ${route.url} declares no delegation rule`);
    }
  });

  server.get("/healthz", { config: { rateLimit: false, public: true } }, async () => ({ status: "ok" }));
  server.get("/readyz", { config: { rateLimit: false, public: true } }, async (_request, reply) => {
    try {
      await app.ping();
      return { status: "ready" };
    } catch (error) {
      app.log.warn({ err: error }, "readiness check failed");
      return reply.code(503).send({ status: "unavailable" });
    }
  });
  server.get("/v1/openapi.json", { config: { public: true } }, async () => server.swagger());
  metricsRoute(server, app);
  statusPageRoutes(server);

  authRoutes(server, app, limits.signIn);
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

  await mountGraphQL(server, app, await buildGraphQLSchema(), await buildAdminGraphQLSchema(), limits);
  return server;
}

/** A route's own hooks of one kind (none, one or several), as a list. */
function hookList<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over the limit, a 20 KB query
 * string among them, or no valid HTTP at all): they are answered in the envelope, with a request id.
 */
function answerClientError(error: Error, socket: Duplex) {
  const { code } = error as { code?: string };
  if (code === "ECONNRESET" || code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable) {
    socket.destroy(error);
    return;
  }
  const refusal =
    code === "HPE_HEADER_OVERFLOW"
      ? new AppError("HEADERS_TOO_LARGE")
      : new AppError("VALIDATION_FAILED", "The request is not valid HTTP.");
  const requestId = randomUUID();
  const body = JSON.stringify({ error: errorBody(refusal, requestId) });
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function replyWithError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const known = error instanceof AppError ? error : fastifyErrorToAppError(error as FastifyError);
  const appError = known ?? new AppError("INTERNAL");
  if (!known) request.log.error({ err: error }, "unhandled error");
  request.errorCode = appError.code;
  if (appError.headers) void reply.headers(appError.headers);
  reply.code(appError.status);
  if (request.routeOptions.config?.graphql) {
    const { message, extensions } = toGraphQLError(appError);
    return reply.send({ errors: [{ message, extensions }] });
  }
  return reply.send({ error: errorBody(appError, request.id) });
}

/**
 * Apollo at /graphql, graphql-ws on the same path, and the operator's schema at /admin/graphql: a server of its
 * own, so no other caller's introspection lists the operator's operations.
 */
async function mountGraphQL(
  server: FastifyInstance,
  app: App,
  schema: GraphQLSchema,
  adminSchema: GraphQLSchema,
  limits: RateLimits,
) {
  const { graphql } = app.config;
  const armor = new ApolloArmor({
    maxDepth: { n: graphql.maxDepth },
    // __typename aliases count too (armor lets them through by default).
    maxAliases: { n: graphql.maxAliases, allowList: [] },
    // Each selected field costs the same at every depth (depth has its own limit, and a list's size the list-items
    // limit): armor's default factor multiplies by 1.5 per level, which refuses an ordinary dashboard of
    // nested pages.
    costLimit: { maxCost: graphql.maxCost, depthCostFactor: 1 },
    blockFieldSuggestion: { enabled: !graphql.introspection },
    // Tokens are capped by graphql-js's own parser (parseOptions below): armor's plugin re-parses the
    // document and turns a syntax error into a 500.
    maxTokens: { enabled: false },
  }).protect();
  // What every document must pass beyond graphql-js's own rules, over HTTP and WebSocket alike.
  const validationRules = [...armor.validationRules, refuseCompilerMarkers];

  /** An Apollo server over one schema, with the same limits, plugins and error formatting as every other. */
  const startApollo = async (served: GraphQLSchema, execute: Execute) => {
    const execution = apolloExecution(served, execute);
    const apollo = new ApolloServer<GraphQLContext>({
      gateway: execution.gateway,
      introspection: graphql.introspection,
      allowBatchedHttpRequests: false,
      parseOptions: { maxTokens: MAX_GRAPHQL_TOKENS },
      includeStacktraceInErrorResponses: false,
      validationRules,
      // armor's typings come from Apollo's CommonJS build; the plugins are the same objects.
      plugins: [
        // Cache hints are unused (responses are per caller), and the plugin wraps every field's resolver.
        ApolloServerPluginCacheControlDisabled(),
        // Apollo's own page loads its IDE from a CDN; development serves GraphiQL from this service instead.
        ApolloServerPluginLandingPageDisabled(),
        ...(armor.plugins as ApolloServerPlugin<GraphQLContext>[]),
        operationChecks(served, graphql.maxListItems),
        execution.plugin,
        fastifyApolloDrainPlugin(server),
      ],
      formatError: formatGraphQLError(app.log),
    });
    await apollo.start();
    return apollo;
  };
  const context = async (request: FastifyRequest): Promise<GraphQLContext> => ({
    app,
    principal: request.principal,
    selector: managedProfileSelector(request.headers),
    requestId: request.id,
    clientAddress: request.ip,
    enforceSignInLimit: () => limits.signIn.hit(request.ip),
    loaders: createLoaders(app),
  });

  // Over HTTP and WebSocket alike, and for each subscription event.
  const execute = compiledExecution(schema);
  if (graphql.ide) registerGraphiQLAssets(server);
  server.route({
    url: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    config: { graphql: true },
    ...(graphql.ide && { onRequest: sendGraphiQLToBrowsers }),
    handler: fastifyApolloHandler(await startApollo(schema, execute), { context }),
  });
  server.route({
    url: "/admin/graphql",
    method: "POST",
    // The operator token only: any other caller is refused before the body is read, as on /v1/admin.
    config: { graphql: true, capabilities: ["OPERATOR"], delegation: DELEGATION_RULES.NONE },
    handler: fastifyApolloHandler(await startApollo(adminSchema, compiledExecution(adminSchema)), { context }),
  });

  // Subscriptions and operations over graphql-ws: same port and path, same rules.
  serveGraphQLWebSocket(server, app, { schema, execute, validationRules, maxTokens: MAX_GRAPHQL_TOKENS, limits });
}
