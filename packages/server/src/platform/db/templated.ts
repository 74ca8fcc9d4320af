import { createQueryId, type Compilable, type CompiledQuery } from 'kysely';
import type { Db, Trx } from './database.js';
import { nameStatement } from './named-statements.js';

/** Stands for the i-th argument while a template is compiled; never sent. */
class Slot {
  constructor(readonly index: number) {}
}

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  /** Each parameter: an argument's index, or a value fixed in the query (a constant). */
  parameters: (number | { value: unknown })[];
}

const templates = new Map<string, Template>();

/**
 * Runs a query whose SQL text depends only on `shape`, built and compiled once per shape: kysely
 * otherwise builds, freezes and compiles the query's tree on every call, which was a tenth of the
 * token endpoint's CPU (issue 28) for a statement whose text never changes. `build` receives the
 * arguments as stand-ins (use each where its value goes, as a value, never to decide the query's
 * form: that is what `shape` names); the compiled parameters are then the real arguments in the
 * stand-ins' places. The statement sent is exactly what building it with the real values sends;
 * on PostgreSQL it is also a named statement, prepared once per connection (named-statements.ts),
 * so a templated query must name the columns it reads and returns.
 */
export async function runTemplated<R>(db: Db | Trx, shape: string, args: readonly unknown[], build: (arg: (index: number) => never) => Compilable<R>): Promise<R[]> {
  let template = templates.get(shape);
  if (!template) {
    const slots = args.map((_, index) => new Slot(index));
    const compiled = build((index) => slots[index] as never).compile();
    const parameters = compiled.parameters.map((value) => (value instanceof Slot ? value.index : { value }));
    if (new Set(parameters.filter((p) => typeof p === 'number')).size !== args.length) throw new Error(`templated query ${shape}: an argument is not a parameter`);
    template = { sql: compiled.sql, query: compiled.query, parameters };
    templates.set(shape, template);
    nameStatement(compiled.sql);
  }
  const parameters = template.parameters.map((p) => (typeof p === 'number' ? args[p] : p.value));
  const result = await db.executeQuery<R>({ sql: template.sql, query: template.query, parameters, queryId: createQueryId() } as CompiledQuery<R>);
  return result.rows;
}

/** The SQL text of every shape compiled so far in this process (for tests that look at plans). */
export function templatedStatements(): ReadonlyMap<string, string> {
  return new Map([...templates].map(([shape, template]) => [shape, template.sql]));
}
