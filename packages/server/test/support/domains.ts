// Helpers of the custom domain tests (test/domains/*.test.ts): an app whose DNS_SERVERS is a
// local DNS server the test controls, APIs on a plan with custom domains, and requests that reach
// the app under a custom domain's Host header, as the TLS-terminating proxy would send them.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import type { TestClient } from './client.js';
import type { TestApp } from './harness.js';
import { startTestDns, type TestDns } from './dns-server.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

export type { TestDns };

/** Moves an API to a platform plan, as a paid checkout would (test/payments covers the paying). */
export async function putOnPlan(t: TestApp, apiId: string, code: 'free' | 'starter' | 'growth' | 'scale'): Promise<void> {
  await t.services.db.updateTable('apis').set({ platform_plan: code }).where('id', '=', apiId).execute();
  await notifyChange(t.services.db, [changed.api(apiId)]);
}

/** The local DNS server for an app; pass `DNS_SERVERS: dns.address` to startTestApp. */
export const startDns = startTestDns;

const agents = new Map<number, Agent>();

/**
 * fetch that sends every request to the app on 127.0.0.1:`port`, whatever the URL's host: the
 * Host header is the URL's (`login.example.test`, no port), as the proxy in front sends it. An
 * https URL is sent as plain HTTP (the proxy terminates TLS). No redirect is followed.
 */
export function hostFetch(port: number) {
  let agent = agents.get(port);
  if (!agent) {
    agent = new Agent({
      connect: (_options: unknown, callback: (error: Error | null, socket: unknown) => void) => {
        const socket = connect({ host: '127.0.0.1', port });
        socket.once('connect', () => callback(null, socket));
        socket.once('error', (error) => callback(error, null));
      },
    } as never);
    agents.set(port, agent);
  }
  const dispatcher = agent;
  return (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const target = new URL(url);
    if (target.protocol === 'https:') target.protocol = 'http:';
    return undiciFetch(target, { redirect: 'manual', ...init, dispatcher } as never) as unknown as Promise<Response>;
  };
}

/** GET as JSON through `hostFetch`. */
export async function getJson(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const response = await hostFetch(t.port)(url, { headers });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Sets a domain, adds its two records on the DNS server and checks: the domain is then active. */
export async function activateDomain(admin: TestClient, dns: TestDns, apiId: string, domain: string) {
  const set = await admin.put(`/apis/${apiId}/domain`, { domain });
  assert.equal(set.status, 200, set.text);
  dns.addDomainRecords(set.body);
  const checked = await admin.post(`/apis/${apiId}/domain/check`);
  assert.equal(checked.status, 200, checked.text);
  assert.equal(checked.body.status, 'active', checked.text);
  return checked.body;
}

/** The answer of the TLS ask endpoint for a name. */
export async function tlsAllowed(t: TestApp, domain: string): Promise<number> {
  const response = await fetch(`${t.url}/internal/tls/allowed?domain=${encodeURIComponent(domain)}`);
  await response.arrayBuffer();
  return response.status;
}
