/**
 * Where the process is in its life, for the readiness probe and for shutdown's account of what it
 * left open: from the first stop signal it is draining (/readyz answers 503 so a balancer takes
 * the node out), and it knows which requests are still in flight.
 */
export class Lifecycle {
  #draining = false;
  readonly #requests = new Map<string, string>();

  get draining(): boolean {
    return this.#draining;
  }

  beginDraining(): void {
    this.#draining = true;
  }

  /** A request began; `what` names its method and route pattern, never its query (it may hold codes). */
  requestStarted(id: string, what: string): void {
    this.#requests.set(id, what);
  }

  requestEnded(id: string): void {
    this.#requests.delete(id);
  }

  /** The requests still in flight, oldest first. */
  openRequests(): string[] {
    return [...this.#requests.values()];
  }
}
