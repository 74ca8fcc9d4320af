// What the verifier's tests share: an API with end-user keys on (the server tests' fixture), a
// verifier on a clock the test moves, and a way to the issuer that counts the calls reaching it
// and can be cut: while down, calls go to a closed port, so they fail as a real outage does.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tenantFetch, type IssuerFixture } from '../../../server/test/support/issuer.js';
import { patchKeySettings } from '../../../server/test/support/end-user-keys.js';
import { startIssuer } from '../../../server/test/support/issuer.js';
import { createVerifier, type Verifier, type VerifierOptions } from '../../src/index.js';

export async function startKeysIssuer(name: string): Promise<IssuerFixture> {
  const f = await startIssuer(name);
  await patchKeySettings(f, { enabled: true });
  return f;
}

/** A port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Line {
  fetch: typeof fetch;
  /** Introspection calls that reached the issuer. */
  introspections: number;
  /** Calls attempted while down. */
  refused: number;
  down: boolean;
  /** An HTTP status the issuer's introspection answers with instead of its own answer (a failing issuer). */
  failWith: number | null;
}

/** The verifier's way to the issuer. */
export async function line(): Promise<Line> {
  const dead = await closedPort();
  const state: Line = {
    introspections: 0,
    refused: 0,
    down: false,
    failWith: null,
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      if (state.down) {
        state.refused++;
        // A real refused connection, not a made-up error.
        return fetch(`http://127.0.0.1:${dead}${url.pathname}`, init);
      }
      if (url.pathname === '/oauth/introspect') state.introspections++;
      if (url.pathname === '/oauth/introspect' && state.failWith !== null) {
        return new Response(JSON.stringify({ error: 'server_error' }), { status: state.failWith, headers: { 'content-type': 'application/json' } });
      }
      return tenantFetch(url, init);
    }) as typeof fetch,
  };
  return state;
}

/** A clock the test moves: the app's time when made, plus what the test adds. */
export function testClock(f: IssuerFixture) {
  let at = f.t.clock.now().getTime();
  return {
    now: () => at,
    advance(ms: number) {
      at += ms;
    },
    set(ms: number) {
      at = ms;
    },
  };
}

/** A verifier of the weather server (or `server`) with its own line and clock. */
export async function verifierFor(f: IssuerFixture, options: Partial<VerifierOptions> & { server?: { clientId: string; secret: string; resource: string } } = {}) {
  const server = options.server ?? f.server;
  const wire = await line();
  const clock = testClock(f);
  const errors: Error[] = [];
  const verifier: Verifier = createVerifier({
    issuer: f.issuer,
    resource: server.resource,
    clientId: server.clientId,
    clientSecret: server.secret,
    fetch: wire.fetch,
    now: clock.now,
    onError: (error) => errors.push(error),
    ...options,
  });
  return { verifier, wire, clock, errors };
}

export const bearer = (value: string) => `Bearer ${value}`;
