import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = SerializerSelector.SerializerFactory;

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled when its route first
 * answers with that status instead of when the app starts. Compiling every response schema of
 * every route was about an eighth of a server's start-up CPU (docs/decisions.md, "Start-up");
 * most routes of a node never answer most of their statuses. The shared schemas (`addSchema`)
 * reach the compiler as at start, so a serializer is the one Fastify would have built.
 */
export const serializersOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compileNow = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= compileNow(route) as (data: unknown) => string)(data);
  };
};
