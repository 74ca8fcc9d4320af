import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one app instance (a registry each, so tests can build several apps). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const mailSent = new Counter({ name: 'gatehouse_mail_sent_total', help: 'Mails handed to the transport', registers: [registry] });
  const mailFailed = new Counter({ name: 'gatehouse_mail_failures_total', help: 'Failed mail delivery attempts', registers: [registry] });
  // One label object per label set, found by one string key, rather than one made per request
  // (every request records both; issue 28).
  const children = new Map<string, { requests: ReturnType<typeof requests.labels>; latency: ReturnType<typeof latency.labels> }>();
  function recordRequest(route: string, method: string, status: number, seconds: number) {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { route, method, status: String(status) };
      child = { requests: requests.labels(labels), latency: latency.labels(labels) };
      children.set(key, child);
    }
    child.requests.inc();
    child.latency.observe(seconds);
  }
  return { registry, requests, latency, mailSent, mailFailed, recordRequest };
}

export type Metrics = ReturnType<typeof createMetrics>;
