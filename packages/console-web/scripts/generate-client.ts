// Writes src/api/schema.d.ts from the OpenAPI document of the server as it is in this checkout:
// the app is built on an in-memory PGlite database (nothing listens) and asked for its document.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { systemClock } from '../../server/src/platform/clock.js';
import { openDatabase } from '../../server/src/platform/db/database.js';
import { migrate } from '../../server/src/platform/db/migrate.js';
import { openapiTypes, SCHEMA_FILE } from './openapi-types.js';

const database = await openDatabase({ url: null });
await migrate(database.db);
const config = loadConfig({ SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: mkdtempSync(join(tmpdir(), 'gh-openapi-')), LOG_LEVEL: 'silent' });
const { app } = await buildApp({ config, database, clock: systemClock, redis: null, logger: false });
await app.ready();
writeFileSync(SCHEMA_FILE, await openapiTypes(app.swagger()));
await app.close();
await database.close();
console.log(`wrote ${SCHEMA_FILE}`);
