// What issuer.bench.ts and its two server processes (issuer-ours.ts, issuer-theirs.ts) share: the
// flow both issuers are set up for, the messages they exchange over IPC, and the CPU readings.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The resource server (RFC 8707) access tokens are for, and the permission it exposes. */
export const RESOURCE = 'https://api.bench.test';
export const PERMISSION = 'read:things';
/** What each code grants: ID token with e-mail claims, refresh tokens, one permission at RESOURCE. */
export const SCOPES = ['openid', 'email', 'offline_access', PERMISSION];
export const REDIRECT_URI = 'https://app.bench.test/callback';
export const NONCE = 'bench-nonce';
/** One PKCE verifier for every code (RFC 7636 4.1); each exchange still hashes it. */
export const CODE_VERIFIER = 'bench-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';
export const CODE_CHALLENGE = createHash('sha256').update(CODE_VERIFIER).digest('base64url');

export interface Credentials {
  clientId: string;
  secret: string;
}

/** What a server process tells the benchmark once it listens. */
export interface ServerReady {
  type: 'ready';
  port: number;
  /** The Host header its issuer answers on. */
  host: string;
  issuer: string;
  tokenPath: string;
  introspectionPath: string;
  /** The web app (confidential client, client_secret_basic). */
  app: Credentials;
  /** The resource server's introspection credentials (client_secret_basic). */
  server: Credentials;
  /** The resource whose access tokens the resource server introspects (theirs: an opaque-token twin of RESOURCE). */
  introspectedResource: string;
  /** Where tokens live, for the output. */
  storage: string;
}

/** `forIntrospection`: codes for the resource whose access tokens the resource server introspects. */
export type ParentMessage = { type: 'codes'; count: number; forIntrospection?: boolean } | { type: 'cpu' } | { type: 'stop' };
export type ChildMessage =
  | ServerReady
  | { type: 'codes'; codes: string[] }
  | { type: 'cpu'; serverMicros: number; databaseMicros: number | null; queries: number | null }
  | { type: 'stopped' };

/** Basic credentials as RFC 6749 2.3.1 writes them: form-urlencoded, then base64. */
export function basic(credentials: Credentials): string {
  const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(credentials.clientId)}:${encode(credentials.secret)}`).toString('base64')}`;
}

/** CPU time (user + system) of this process, in microseconds. */
export function ownCpuMicros(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

const CLOCK_TICKS_PER_S = 100;

/** CPU time of local processes by pid, in microseconds (Linux /proc; empty elsewhere). */
export function processCpuMicros(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      // utime and stime are fields 14 and 15; the command name in parentheses may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S);
    } catch {
      /* gone, or not on this machine */
    }
  }
  return out;
}

export const procAvailable = (() => {
  try {
    return readdirSync('/proc').length > 0;
  } catch {
    return false;
  }
})();

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function eachLimited<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await work(items[index]!);
      }
    }),
  );
  return out;
}
