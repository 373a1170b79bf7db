import { SerializerSelector, type SerializerFactory } from "@fastify/fast-json-stringify-compiler";

const compile = SerializerSelector();
/** Compiled serializers by what they were compiled from: pure functions, shared by every route and server. */
const compiled = new Map<string, ReturnType<ReturnType<SerializerFactory>>>();

/**
 * Fastify's response serializers, one per distinct schema rather than one per route and status: every route
 * answers its errors with the same envelope, so over a thousand compilations become under a hundred.
 *
 * It matters beyond start-up. Each compiled serializer keeps an object whose first key is unique to it, so each
 * adds a transition to V8's shared empty-object map, and V8 keeps at most 1536. With one per route and status
 * the list was full: a per-request shape whose transition a full collection had dropped (Node's nextTick record,
 * say) could not get it back, and from then on each such object was made with a map of its own, through the
 * runtime: 2-3 µs of CPU a request (test/e2e/empty-map-transitions.test.ts keeps the list below the cap).
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => (route) => {
  const key = JSON.stringify([externalSchemas, options, route.schema]);
  let serializer = compiled.get(key);
  if (!serializer) compiled.set(key, (serializer = compile(externalSchemas, options)(route)));
  return serializer;
};
