// Runs hostile request plans within a time budget: one seeded sample of every plan first (cheap
// plans of every operation before the ~1 MB ones, so a slow server costs the heavy coverage and
// not the rest), then further samples until the budget is spent. The database is compared before
// and after the requests of each operation, so a change is pinned to the operation that made it.
import fc from 'fast-check';
import type { Db } from '../../../src/platform/db/database.js';
import { send, type HostileAnswer, type HostileRequest } from './send.js';
import { changesBetween, tableState } from './unchanged.js';
import type { FailureLog } from './verdicts.js';

export interface Plan {
  /** The operation or endpoint the requests go to. */
  where: string;
  family: string;
  credential: string;
  /** Requests of about a megabyte (huge arrays, deep nesting, many properties). */
  heavy: boolean;
  /**
   * Whether a request no rule surely refuses may be sent (reads without effects). Elsewhere such a
   * request could succeed and change data, which would make "nothing changed" unfair: not sent.
   */
  probes: boolean;
  /** Host header (a tenant host); the console's own when absent. */
  host?: string;
  arbitrary: fc.Arbitrary<HostileRequest>;
  judge(request: HostileRequest, answer: HostileAnswer): string[];
}

export interface RunOptions {
  seed: number;
  /**
   * Passes over every plan. A fixed number keeps runs alike (the same requests each time); the
   * time budget caps it on a loaded machine, where fewer passes run.
   */
  passes: number;
  budgetMs: number;
  port: number;
  db: Db;
  log: FailureLog;
}

/** The seed the suite uses unless GH_FUZZ_SEED names another (printed with every failure). */
export const DEFAULT_SEED = 20_251_111;

export function fuzzSeed(): number {
  const named = Number(process.env.GH_FUZZ_SEED);
  return Number.isInteger(named) && process.env.GH_FUZZ_SEED ? named : DEFAULT_SEED;
}

/** At most this many seconds of requests per test (GH_FUZZ_BUDGET_S overrides, for a longer run by hand). */
export function fuzzBudgetMs(defaultSeconds: number): number {
  const named = Number(process.env.GH_FUZZ_BUDGET_S);
  return (Number.isFinite(named) && named > 0 ? named : defaultSeconds) * 1000;
}

/** Passes per test (GH_FUZZ_PASSES overrides: more for a deeper run by hand, with a larger budget). */
export function fuzzPasses(defaultPasses: number): number {
  const named = Number(process.env.GH_FUZZ_PASSES);
  return Number.isInteger(named) && named > 0 ? named : defaultPasses;
}

/** GH_FUZZ_TRACE=1 prints every request's answer to stderr. */
const TRACE = process.env.GH_FUZZ_TRACE === '1';

const locationOf = (answer: HostileAnswer) => (answer.headers.location ? ` (to ${String(answer.headers.location).slice(0, 60)})` : '');

/** FNV-1a: one 32-bit seed per plan and pass, derived from the run's seed. */
function derivedSeed(seed: number, parts: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < parts.length; i++) hash = Math.imul(hash ^ parts.charCodeAt(i), 0x01000193);
  return hash | 0;
}

export interface RunSummary {
  passes: number;
  /** The budget ran out before the passes asked for were done. */
  cappedByTime: boolean;
  /** Plans of the first pass not sent because the budget ran out (heavy ones only). */
  skipped: number;
  /** Generated requests not sent because no rule surely refuses them where they would go. */
  unsure: number;
}

export async function runPlans(plans: Plan[], options: RunOptions): Promise<RunSummary> {
  const { seed, budgetMs, port, db, log } = options;
  const deadline = performance.now() + budgetMs;
  const wheres = new Map<string, Plan[]>();
  for (const plan of plans) wheres.set(plan.where, [...(wheres.get(plan.where) ?? []), plan]);
  let state = await tableState(db);
  let skipped = 0;
  let unsure = 0;

  async function block(where: string, batch: Plan[], pass: number, mustRun: boolean): Promise<void> {
    const answeredAsFine: string[] = [];
    const sent: string[] = [];
    for (const plan of batch) {
      if (!mustRun && performance.now() > deadline) {
        if (pass === 1) skipped++;
        continue;
      }
      const request = fc.sample(plan.arbitrary, { seed: derivedSeed(seed, `${plan.where}|${plan.family}|${plan.credential}|${pass}`), numRuns: 1 })[0]!;
      if (!request.sure && !plan.probes) {
        unsure++;
        continue;
      }
      const answer = await send(port, request, plan.host);
      const problems = plan.judge(request, answer);
      log.record(where, request, plan.host, answer, problems);
      const line = `${request.poison} [${request.credential}] -> ${answer.status}${locationOf(answer)}`;
      if (TRACE) process.stderr.write(`${Math.round(answer.ms)}ms ${where} ${request.family}: ${line}${problems.length ? ` !! ${problems.join('; ')}` : ''}\n`);
      sent.push(line);
      if (answer.status >= 200 && answer.status < 400) answeredAsFine.push(line);
    }
    if (sent.length === 0) return;
    const after = await tableState(db);
    const changes = changesBetween(state, after);
    // The change was most likely made by a request answered as if it were fine; but a refusal can
    // change data too (a code spent before the refusal), and then every request is a suspect.
    if (changes.length) log.changed(where, changes, answeredAsFine.length ? answeredAsFine : sent);
    state = after;
  }

  for (const [where, batch] of wheres) await block(where, batch.filter((plan) => !plan.heavy), 1, true);
  for (const [where, batch] of wheres) await block(where, batch.filter((plan) => plan.heavy), 1, false);
  let passes = 1;
  while (passes < options.passes && performance.now() < deadline) {
    passes++;
    for (const [where, batch] of wheres) await block(where, batch, passes, false);
  }
  return { passes, cappedByTime: passes < options.passes || skipped > 0, skipped, unsure };
}
