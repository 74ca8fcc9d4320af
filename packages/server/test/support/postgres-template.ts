// Test databases on PostgreSQL: a copy of the run's migrated template database per test app, its
// schema renamed to a name of its own (listeners are named after the schema, and some tests look
// theirs up across the server). Copying a database is a file copy inside PostgreSQL; migrating a
// schema from empty ran every migration again and queued behind other files' under the migration
// lock, which is per database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The schema the template is migrated in; each copy renames it. */
export const TEMPLATE_SCHEMA = 'gh_template';

/** The start of the names of a template's copies. */
export const copyPrefix = (template: string) => `gh_t_${template.replace(/^gh_tpl_/, '')}_`;

/** `adminUrl` pointed at the database `name`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** A new database copied from `template`, its schema renamed; answers where it is and how to drop it. */
export async function copyTemplate(adminUrl: string, template: string): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const id = randomBytes(6).toString('hex');
  // Named after the run's template, so the runner can drop what a test file left behind.
  const name = `${copyPrefix(template)}${id}`;
  const schema = `t_${id}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`alter schema ${TEMPLATE_SCHEMA} rename to ${schema}`);
  } finally {
    await setup.end();
  }
  return {
    url,
    schema,
    // Without FORCE: a connection the app has not finished closing would be killed under it and
    // fail the test file with an uncaught error. One still open after a few tries is left to the
    // runner, which drops the run's copies when every test process has ended.
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        for (let attempt = 1; attempt <= 10; attempt++) {
          try {
            await client.query(`drop database if exists ${name}`);
            return;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006') throw error; // object_in_use
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}
