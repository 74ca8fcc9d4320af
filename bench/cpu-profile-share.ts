// Splits a V8 CPU profile of a benchmark's server into whose code the time was spent in, so the
// SDK's share of a request can be read from one process's samples: a ratio that the machine's
// other work moves far less than requests per second (both sides of it slow down together).
// Each sample goes to the innermost frame of a known owner on its stack: the SDK's build, the
// server's own file (the handler), the web framework, or the fake Gatehouse; node's internals
// count for the owner that called them (the SHA-256 the verifier asks for is the SDK's, the
// socket write the handler's end() makes is the handler's). The garbage collector, V8 itself and
// node code called by no owner (the HTTP parser) are "the rest".

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export type Owner = 'sdk' | 'handler' | 'framework' | 'fake' | 'gc' | 'rest';

export interface Shares {
  /** Microseconds of samples that were not idle. */
  totalUs: number;
  us: Record<Owner, number>;
  /** The SDK's own functions and what they called, by self time, most first. */
  sdkTop: [string, number][];
}

export function ownerOf(url: string): Owner | null {
  if (url.includes('/packages/sdk/dist/')) return 'sdk';
  if (url.includes('sdk-http-server.ts')) return 'handler';
  if (url.includes('/node_modules/fastify/') || url.includes('/node_modules/find-my-way/') || url.includes('/node_modules/light-my-request/') || url.includes('/node_modules/avvio/')) return 'framework';
  if (url.includes('sdk-support.ts')) return 'fake';
  return null;
}

export function cpuShares(profile: CpuProfile): Shares {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const us: Record<Owner, number> = { sdk: 0, handler: 0, framework: 0, fake: 0, gc: 0, rest: 0 };
  const sdkSelf = new Map<string, number>();
  let totalUs = 0;
  for (const [id, time] of selfUs) {
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === '(idle)') continue;
    totalUs += time;
    let owner: Owner = leaf.functionName === '(garbage collector)' ? 'gc' : 'rest';
    for (let at: number | undefined = id; owner === 'rest' && at !== undefined; at = parent.get(at)) owner = ownerOf(byId.get(at)!.callFrame.url) ?? 'rest';
    us[owner] += time;
    if (owner === 'sdk') {
      const name = `${leaf.functionName || '(anonymous)'} ${leaf.url.replace(/^.*\/(dist|node_modules)\//, '')}:${leaf.lineNumber + 1}`;
      sdkSelf.set(name, (sdkSelf.get(name) ?? 0) + time);
    }
  }
  return { totalUs, us, sdkTop: [...sdkSelf].sort((a, b) => b[1] - a[1]) };
}
