// Starting and stopping metered child processes (support/metered-process.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const script = fileURLToPath(new URL('./metered-process.ts', import.meta.url));

export interface MeteredProcess {
  child: ChildProcess;
  url: string;
  /** SIGTERM: the child closes its meter (delivering what it can) and exits. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to deliver or clean up. */
  kill(): Promise<void>;
}

/** Every child started, so a test file's after() can make sure none outlives it. */
export const started: ChildProcess[] = [];

export async function startMeteredProcess(config: Record<string, unknown>): Promise<MeteredProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(config)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    void exited.then((code) => reject(new Error(`the metered process exited (${code}) before listening: ${stderr}`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Kills every child still running (for after()). */
export function killAll(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
