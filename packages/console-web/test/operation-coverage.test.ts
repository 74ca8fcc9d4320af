// Issue 29 item 2: every operation of the console API's OpenAPI document is called from the console
// app, or listed with a reason as automation-only in docs/decisions.md ("### Automation-only
// console operations"). Server-independent: the document is read as the client was generated from
// it (src/api/schema.d.ts, which client-drift.test.ts keeps equal to the served /api/openapi.json),
// the calls from the app's sources (`api.GET('/api/…'` and the other methods of the generated
// client), the list from the decisions.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
// The test runner's mirror of the repository links package.json but not docs/: the link leads home.
const DECISIONS = join(dirname(realpathSync(join(PACKAGE_DIR, '..', '..', 'package.json'))), 'docs', 'decisions.md');
const HEADING = '### Automation-only console operations';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** `METHOD /path` of every operation in the generated `paths` (a method typed `?: never` is none). */
export function documentOperations(schema: string): Set<string> {
  const start = schema.indexOf('export interface paths {');
  const end = schema.indexOf('\n}\n', start);
  const operations = new Set<string>();
  let path: string | null = null;
  for (const line of schema.slice(start, end).split('\n')) {
    const pathLine = /^ {4}"(\/[^"]+)": \{$/.exec(line);
    if (pathLine) path = pathLine[1]!;
    const method = /^ {8}(\w+): \{$/.exec(line);
    if (method && path && METHODS.includes(method[1]!)) operations.add(`${method[1]!.toUpperCase()} ${path}`);
  }
  return operations;
}

/** `METHOD /path` of every call through the generated client in the app's sources. */
export function calledOperations(sources: string[]): Set<string> {
  const called = new Set<string>();
  for (const text of sources) {
    for (const match of text.matchAll(/\b\w+\.(GET|PUT|POST|DELETE|PATCH|OPTIONS|HEAD|TRACE)\(\s*['"`](\/[^'"`]+)['"`]/g)) called.add(`${match[1]} ${match[2]}`);
  }
  return called;
}

/** The list under the heading: `- \`METHOD /path\`: reason` lines, up to the next heading. */
export function automationOnly(decisions: string): Map<string, string> {
  const start = decisions.indexOf(HEADING);
  assert.ok(start >= 0, `docs/decisions.md has "${HEADING}"`);
  const listed = new Map<string, string>();
  for (const line of decisions.slice(start + HEADING.length).split('\n')) {
    if (/^#{1,6} /.test(line)) break;
    const entry = /^- `([A-Z]+ \/[^`]+)`[:,]?\s*(.*)$/.exec(line);
    if (entry) listed.set(entry[1]!, entry[2]!.trim());
  }
  return listed;
}

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

test('every operation of /api/openapi.json is called from the console or listed as automation-only with a reason', () => {
  const operations = documentOperations(readFileSync(join(PACKAGE_DIR, 'src', 'api', 'schema.d.ts'), 'utf8'));
  assert.ok(operations.size > 50, `the document was read (${operations.size} operations)`);
  const called = calledOperations(sourcesOf(join(PACKAGE_DIR, 'src')));
  const listed = automationOnly(readFileSync(DECISIONS, 'utf8'));
  const uncovered = [...operations].filter((op) => !called.has(op) && !listed.has(op)).sort();
  const unknownCalls = [...called].filter((op) => !operations.has(op)).sort();
  const stale = [...listed.keys()].filter((op) => !operations.has(op)).sort();
  const unreasoned = [...listed].filter(([, reason]) => reason.length < 10).map(([op]) => op);
  const calledAnyway = [...listed.keys()].filter((op) => called.has(op)).sort();
  console.log(`operations: ${operations.size}; called from the console: ${[...operations].filter((op) => called.has(op)).length}; automation-only: ${listed.size}; uncovered: ${uncovered.length}`);
  if (uncovered.length) console.log(`uncovered operations:\n${uncovered.map((op) => `  ${op}`).join('\n')}`);
  assert.deepEqual(unknownCalls, [], 'calls of operations the document does not have');
  assert.deepEqual(stale, [], `listed under "${HEADING}" but not in the document`);
  assert.deepEqual(unreasoned, [], 'listed without a reason');
  assert.deepEqual(calledAnyway, [], 'listed as automation-only but called from the console');
  assert.deepEqual(uncovered, [], `operations neither called from the console nor listed under "${HEADING}" in docs/decisions.md`);
});

test('the coverage readers: methods typed never are no operation; calls and list entries are read as written', () => {
  const schema = ['export interface paths {', '    "/api/x": {', '        get: {', '        };', '        put?: never;', '        post: {', '    };', '}', ''].join('\n');
  assert.deepEqual([...documentOperations(schema)], ['GET /api/x', 'POST /api/x']);
  assert.deepEqual([...calledOperations(["call(api.GET('/api/x', {}))", 'api.POST(\n  "/api/y")', "api.get('/api/z')"])], ['GET /api/x', 'POST /api/y']);
  const listed = automationOnly(`## A\n${HEADING}\n\n- \`GET /sdk/v1/snapshot\`: the SDK's own\n- not an entry\n### Next\n- \`GET /api/other\`: after`);
  assert.deepEqual([...listed], [['GET /sdk/v1/snapshot', "the SDK's own"]]);
});
