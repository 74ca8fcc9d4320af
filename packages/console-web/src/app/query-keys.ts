// Server state lives in one TanStack Query cache, keyed by operation: the API path template first,
// then the values of its parameters, so a mutation invalidates exactly the reads it changes
// (`['/api/apis/{api}', apiId]` is the API; `['/api/apis/{api}/customers', apiId, …]` its lists).
import type { paths } from '../api/schema.js';

export type OperationKey = readonly [keyof paths, ...unknown[]];

export const key = <P extends keyof paths>(path: P, ...params: unknown[]): OperationKey => [path, ...params];
