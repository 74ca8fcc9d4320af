import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';
import { signUp, signUpOverHttp } from './support/flows.js';
import { createApi } from './support/money.js';
import { addMember } from './support/workspaces.js';
let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
test('probe', async () => {
  await signUp(t); await signUpOverHttp(t); // warm both paths (first-use compiles)
  const o = await signUp(t); await addMember(t, o.client, o.workspaceId, 'viewer'); await createApi(t, undefined, o);
  const n = 20;
  let a = cpu(); for (let i = 0; i < n; i++) await signUpOverHttp(t); const http = (cpu() - a) / n;
  a = cpu(); for (let i = 0; i < n; i++) await signUp(t); const direct = (cpu() - a) / n;
  a = cpu(); for (let i = 0; i < n; i++) await addMember(t, o.client, o.workspaceId, 'viewer'); const member = (cpu() - a) / n;
  a = cpu(); for (let i = 0; i < n; i++) await createApi(t, { name: `P ${i}` }, o); const api = (cpu() - a) / n;
  console.log(`PROBE per call CPU ms: signUpOverHttp ${http.toFixed(0)}, signUp direct ${direct.toFixed(0)}, addMember ${member.toFixed(0)}, createApi (owner given) ${api.toFixed(0)}`);
});
