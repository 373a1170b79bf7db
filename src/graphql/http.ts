import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from "@as-integrations/fastify";
import { ApolloArmor } from "@escape.tech/graphql-armor";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { GraphQLSchema } from "graphql";
import type { App } from "../app.js";
import { DELEGATION_RULES } from "../auth/delegation.js";
import { managedProfileSelector } from "../rest/http.js";
import { apolloExecution, compiledExecution, refuseCompilerMarkers, type Execute } from "./compiled-execution.js";
import type { GraphQLContext } from "./context.js";
import { formatGraphQLError } from "./errors.js";
import { registerGraphiQL } from "./graphiql.js";
import { GraphQLLoaders } from "./loaders.js";
import { operationChecks } from "./operation-checks.js";
import { buildAdminGraphQLSchema, buildGraphQLSchema } from "./schema.js";
import { serveGraphQLWebSocket } from "./websocket.js";

const MAX_GRAPHQL_TOKENS = 1000;

/**
 * Apollo at /graphql, graphql-ws on the same path, and the operator's schema at /admin/graphql: a server of its
 * own, so no other caller's introspection lists the operator's operations.
 */
export const graphqlRoutes: FastifyPluginAsync<{ app: App }> = async (server, { app }) => {
  const { graphql } = app.config;
  const limits = app.rateLimits;
  const schema = await buildGraphQLSchema();
  const adminSchema = await buildAdminGraphQLSchema();
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
    loaders: new GraphQLLoaders(app),
  });

  // Over HTTP and WebSocket alike, and for each subscription event.
  const execute = compiledExecution(schema);
  const sendGraphiQLToBrowsers = graphql.ide && registerGraphiQL(server);
  server.route({
    url: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    config: { graphql: true },
    ...(sendGraphiQLToBrowsers && { onRequest: sendGraphiQLToBrowsers }),
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
};
