import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * SQL texts sent as named (prepared) statements on PostgreSQL: parsed and planned once per
 * connection instead of on every call. Only runTemplated's texts are named, and those name every
 * column they read or return (a `*` there is a CTE's own explicit columns): a prepared `select *`
 * would fail with "cached plan must not change result type" on every old node of a rolling deploy
 * whose migration adds a column, which is why nothing else is named (docs/decisions.md, issue 16).
 */
const names = new Map<string, string>();

export function nameStatement(text: string): void {
  if (!names.has(text)) names.set(text, `gh_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
}

/** Sends the named texts of this pool's connections as prepared statements. */
export function prepareNamedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof text === 'string' ? names.get(text) : undefined;
      if (name === undefined) return callback === undefined ? (values === undefined ? query(text) : query(text, values)) : query(text, values, callback);
      return callback === undefined ? query({ name, text, values }) : query({ name, text, values }, callback);
    };
  });
}
