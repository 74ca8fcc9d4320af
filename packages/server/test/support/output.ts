// Where a test file keeps what a reviewer looks at after a run (screenshots of pages):
// packages/server/test-output/<the test file's path under test/, without .test.ts>/.
import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The output folder of the test file whose `import.meta.url` this is; made if missing. */
export function testOutputDir(testFileUrl: string): string {
  const file = relative(join(SERVER_DIR, 'test'), fileURLToPath(testFileUrl)).replace(/\.test\.[jt]s$/, '');
  const dir = join(SERVER_DIR, 'test-output', file);
  mkdirSync(dir, { recursive: true });
  return dir;
}
