// oidc-provider ships no types; the benchmark uses it untyped (bench/issuer-theirs.ts).
declare module 'oidc-provider';
declare module 'oidc-provider/lib/adapters/memory_adapter.js';
declare module 'oidc-provider/lib/helpers/lru.js';
