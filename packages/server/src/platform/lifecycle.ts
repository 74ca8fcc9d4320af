/**
 * Where the process is in its life, for the readiness probe and for shutdown's account of what it
 * left open: from the first stop signal it is draining (/readyz answers 503 so a balancer takes
 * the node out), and it knows which requests are still in flight.
 */
/** What a request in flight is named by. */
interface InFlight {
  method: string;
  routeOptions: { url?: string | undefined };
}

export class Lifecycle {
  #draining = false;
  readonly #requests = new Map<string, InFlight>();

  get draining(): boolean {
    return this.#draining;
  }

  beginDraining(): void {
    this.#draining = true;
  }

  /**
   * A request began. Its name (method and route pattern, never its query: it may hold codes) is
   * made only when a shutdown asks, not on every request.
   */
  requestStarted(id: string, request: InFlight): void {
    this.#requests.set(id, request);
  }

  requestEnded(id: string): void {
    this.#requests.delete(id);
  }

  /** The requests still in flight, oldest first. */
  openRequests(): string[] {
    return [...this.#requests.values()].map((request) => `${request.method} ${request.routeOptions.url ?? '(no route)'}`);
  }
}
