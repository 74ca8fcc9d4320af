import { createRequire } from 'node:module';

type Serialize = (data: unknown) => string;
// The shapes of Fastify's SerializerFactory (@fastify/fast-json-stringify-compiler's types).
type CompileSerializer = (route: { schema?: unknown; method: string; url: string; httpStatus: string }) => Serialize;
type BuildSerializer = (externalSchemas: unknown, serializerOpts: unknown) => CompileSerializer;

/**
 * Tests only: Fastify's own response serializers, each compiled when its route first answers with
 * that status instead of when the app starts. Compiling every route's response schemas (each with
 * its own ajv inside fast-json-stringify) was about a sixth of the CPU of a test file that starts
 * the app for a few routes (docs/decisions.md, "Tests"). A server keeps Fastify's default, so a
 * response schema that cannot compile stops it at start.
 *
 * The builder is Fastify's default (@fastify/fast-json-stringify-compiler), loaded from where
 * Fastify itself resolves it, so the serializers are the same functions of the same version.
 */
export function serializersOnFirstUse(): BuildSerializer {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const SerializerSelector = fromFastify('@fastify/fast-json-stringify-compiler') as () => BuildSerializer;
  const build = SerializerSelector();
  return (externalSchemas, serializerOpts) => {
    const compile = build(externalSchemas, serializerOpts);
    return (route) => {
      let serialize: Serialize | undefined;
      return (data) => (serialize ??= compile(route))(data);
    };
  };
}
