// The console web app inside the `@gatehouse/server` package: `npm pack` (prepack) copies its build
// (packages/console-web/dist) to packages/server/console-web, where the packaged server finds it
// (console/web-app/files.ts), and postpack removes the copy so the workspace keeps serving the
// live build. `copy` fails when there is no build: a package without its console is not one.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const built = join(root, 'packages', 'console-web', 'dist');
const inPackage = join(root, 'packages', 'server', 'console-web');
const action = process.argv[2];

if (action === 'copy') {
  if (!existsSync(join(built, 'index.html'))) {
    console.error('pack: packages/console-web/dist has no build; run npm run build first');
    process.exit(1);
  }
  rmSync(inPackage, { recursive: true, force: true });
  cpSync(built, inPackage, { recursive: true, filter: (source) => !source.endsWith('.build-stamp') });
} else if (action === 'remove') {
  rmSync(inPackage, { recursive: true, force: true });
} else {
  console.error('usage: node scripts/pack-console.mjs copy|remove');
  process.exit(2);
}
