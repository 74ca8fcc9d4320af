// Stopping with a deadline (docs/operations.md, "Stopping"). The first SIGTERM or SIGINT makes
// /readyz answer 503, waits the drain time while requests are still served (for the balancer to
// notice), then closes: no new connections, in-flight requests finish, background work stops,
// pools close. Whatever is still open when the grace time is up is abandoned, with a log line
// naming it, and the process exits; a second signal abandons at once. Nothing abandoned is lost:
// mail and webhook deliveries are claimed with a lease and retried by the next node or start.
import type { Lifecycle } from './lifecycle.js';

/** One thing to stop, in order; `open` says what of it is still running (for the log line). */
export interface ShutdownStep {
  name: string;
  run(): Promise<void> | void;
  open?(): string[];
}

export interface ShutdownOptions {
  lifecycle: Lifecycle;
  drainMs: number;
  graceMs: number;
  steps: ShutdownStep[];
  log: { info(line: string): void; error(line: string): void };
  exit(code: number): void;
}

/** Runs the steps once, on the first signal; answers the function to call with each signal. */
export function shutdownOnSignals(options: ShutdownOptions): (signal: string) => void {
  let started = false;
  let abandonNow: ((reason: string) => void) | null = null;
  return (signal) => {
    if (started) {
      abandonNow?.(`a second ${signal}`);
      return;
    }
    started = true;
    void run(options, signal, (abandon) => (abandonNow = abandon));
  };
}

async function run(options: ShutdownOptions, signal: string, onAbandon: (abandon: (reason: string) => void) => void) {
  const { lifecycle, log } = options;
  let current: ShutdownStep | null = null;
  let remaining = options.steps;
  let finished = false;
  const abandon = (reason: string) => {
    if (finished) return;
    finished = true;
    const open = current ? [`${current.name}${describe(current.open?.() ?? [])}`] : [];
    const notRun = remaining.filter((step) => step !== current).map((step) => step.name);
    log.error(`shutdown: ${reason}; abandoning ${open.join('') || 'nothing'}${notRun.length ? `; not stopped: ${notRun.join(', ')}` : ''}; exiting`);
    options.exit(1);
  };
  onAbandon(abandon);
  lifecycle.beginDraining();
  if (options.drainMs > 0) {
    log.info(`${signal}: draining for ${options.drainMs / 1000} s (/readyz answers 503)`);
    await new Promise((resolve) => setTimeout(resolve, options.drainMs));
    if (finished) return;
  }
  log.info(`${signal}: finishing in-flight requests (at most ${options.graceMs / 1000} s)`);
  const deadline = setTimeout(() => abandon(`${options.graceMs / 1000} s passed`), options.graceMs);
  for (const step of options.steps) {
    current = step;
    remaining = options.steps.slice(options.steps.indexOf(step));
    try {
      await step.run();
    } catch (error) {
      log.error(`shutdown: stopping ${step.name} failed: ${String(error)}`);
    }
    if (finished) return;
  }
  finished = true;
  clearTimeout(deadline);
  log.info('stopped');
  options.exit(0);
}

function describe(open: string[]): string {
  if (!open.length) return '';
  const shown = open.slice(0, 10).join(', ');
  return ` (${shown}${open.length > 10 ? `, and ${open.length - 10} more` : ''})`;
}
