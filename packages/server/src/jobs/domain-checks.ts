import { MINUTE } from '../platform/clock.js';
import type { DomainService } from '../domains/service.js';
import type { Job } from './scheduler.js';

/**
 * Custom domains due for a check (issue 17): pending ones with backoff for 72 hours, active ones
 * daily, and hourly through an active domain's grace (domains/transitions.ts).
 */
export function domainChecksJob(domains: DomainService): Job {
  return {
    name: 'domain-checks',
    lockKey: 7_310_171,
    everyMs: MINUTE,
    // Safe on several nodes at once: a run claims the domains it checks, and writes an outcome only
    // over the row it read. Without the lock, DNS lookups never hold PGlite's one connection.
    exclusive: false,
    run: () => domains.runDueChecks(),
  };
}
