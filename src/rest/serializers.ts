import { SerializerSelector, type SerializerFactory } from "@fastify/fast-json-stringify-compiler";

const compile = SerializerSelector();
/** Compiled serializers by what they were compiled from: pure functions, shared by every route and server. */
const compiled = new Map<string, ReturnType<ReturnType<SerializerFactory>>>();

/**
 * Fastify's response serializers, one per distinct schema rather than one per route and status: every route
 * answers its errors with the same envelope, so over a thousand compilations, each kept for the life of the
 * process, become under a hundred.
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => (route) => {
  const key = JSON.stringify([externalSchemas, options, route.schema]);
  let serializer = compiled.get(key);
  if (!serializer) compiled.set(key, (serializer = compile(externalSchemas, options)(route)));
  return serializer;
};
