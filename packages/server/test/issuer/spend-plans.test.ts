// The statements that spend a code or a refresh token (issuer/tokens/queries.ts) read their grant
// by its primary key whatever plan the database picks. On PostgreSQL they are prepared once per
// connection and run on a generic plan after five executions; that plan, with the grant joined
// only through the spent row, started from the person (one active person in a small tenant), read
// every grant of that person and probed the code for each, so a code exchange cost more with every
// sign-in of that person (bench/issuer: 7 ms of PostgreSQL CPU per exchange at 2,500 grants).
// Checked here on the generic plan of every form the token endpoint compiled, with one person
// holding 300 grants; EXPLAIN without ANALYZE runs nothing.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { templatedStatements } from '../../src/platform/db/templated.js';
import { refresh, webTokens } from '../support/issuer-flows.js';
import { signedInPerson, startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Plans API');
  const { person, cookie } = await signedInPerson(f);
  // One code exchange and one refresh: the forms that mint the next refresh token are compiled.
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal((await refresh(f, tokens.refresh_token!)).status, 200);
  const grant = await f.t.services.db.selectFrom('token_grants').selectAll().where('person_id', '=', person.id).executeTakeFirstOrThrow();
  const copies = Array.from({ length: 300 }, () => ({ ...grant, id: `grt_${randomBytes(10).toString('hex')}` }));
  await f.t.services.db.insertInto('token_grants').values(copies).execute();
});
after(() => f.t.close());

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** How the generic plan of `text` reaches token_grants: each scan's type and index. */
async function grantScans(text: string): Promise<string[]> {
  const parameters = Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  return f.t.services.db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`prepare gh_plan_probe as ${text}`).execute(trx);
    const { rows } = await sql.raw<{ 'QUERY PLAN': unknown }>(`explain (format json) execute gh_plan_probe(${Array(parameters).fill('null').join(', ')})`).execute(trx);
    await sql.raw('deallocate gh_plan_probe').execute(trx);
    const plan = rows[0]!['QUERY PLAN'];
    const root = ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0]!.Plan;
    return nodesOf(root).filter((n) => n['Relation Name'] === 'token_grants').map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`.trim());
  });
}

test("spending a code or a refresh token reads the grant by its key on the generic plan, whatever the person's grants", async () => {
  const spending = [...templatedStatements()].filter(([shape]) => /^take(Code|RefreshToken) .* mint/.test(shape));
  // The process's compiled forms: with other test files before this one in the process, more of them.
  assert.deepEqual([...new Set(spending.map(([shape]) => shape.split(' ')[0]))].sort(), ['takeCode', 'takeRefreshToken'], 'the token endpoint compiled both spending forms');
  for (const [shape, text] of spending) {
    const scans = await grantScans(text);
    assert.ok(scans.length > 0, `${shape}: token_grants is in the plan`);
    assert.deepEqual(scans.filter((scan) => !/^Index (Only )?Scan token_grants_pkey$/.test(scan)), [], `${shape}: every read of token_grants is by its key (${scans.join('; ')})`);
  }
});
