import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const shipped = fileURLToPath(new URL('../../platform-plans.json', import.meta.url));
let withoutTeams: string | undefined;

/**
 * The shipped catalogue with teams taken off the free plan, as an operator may ship it: there a
 * workspace has one member until it buys a plan with teams (test/payments tests that rule).
 */
export function catalogueWithoutFreeTeams(): string {
  if (withoutTeams) return withoutTeams;
  const catalogue = JSON.parse(readFileSync(shipped, 'utf8')) as { plans: { code: string; teams: boolean }[] };
  for (const plan of catalogue.plans) if (plan.code === 'free') plan.teams = false;
  withoutTeams = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  writeFileSync(withoutTeams, JSON.stringify(catalogue));
  return withoutTeams;
}

export const SHIPPED_PLATFORM_PLANS = shipped;
