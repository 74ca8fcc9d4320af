import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received, as the test asserts it. */
export interface StandinRequest {
  method: string;
  path: string;
  /** Stripe-Account: the connected account a call acts on (direct charges); absent for the platform. */
  account: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

/**
 * A local stand-in of the few Stripe API endpoints Gatehouse calls, for the `stripe` library to
 * talk to over real HTTP (STRIPE_API_URL). It answers objects with the fields we read and keeps a
 * log of what it was asked. `failPricesOf` makes price creation of that amount fail (sync errors).
 */
export class StripeStandin {
  readonly log: StandinRequest[] = [];
  failPricesOf: number | null = null;
  /** Subscriptions whose cancellation (DELETE) the stand-in refuses, as Stripe would on an outage. */
  readonly failCancelOf = new Set<string>();
  /** The id of the last checkout session made. */
  lastSessionId: string | null = null;
  /** Checkout sessions paid or expired: Stripe refuses to expire them (again). */
  readonly closedSessions = new Set<string>();
  readonly #replies = new Map<string, [number, Record<string, unknown>]>();
  #server: Server | null = null;
  #n = 0;
  url = '';

  #id(prefix: string) {
    return `${prefix}_standin${++this.#n}`;
  }

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const form = Object.fromEntries(new URLSearchParams(raw || url.search));
        const entry: StandinRequest = { method: req.method ?? '', path: url.pathname, account: req.headers['stripe-account'] as string | undefined, idempotencyKey: req.headers['idempotency-key'] as string | undefined, form };
        this.log.push(entry);
        // As Stripe does: a repeated idempotency key gets the first answer again (a request refused
        // before it ran, such as a validation error, is not kept).
        const key = entry.idempotencyKey ? `${entry.account ?? ''}:${entry.idempotencyKey}` : null;
        const [status, body] = (key && this.#replies.get(key)) || this.#answer(entry);
        if (key && status < 300) this.#replies.set(key, [status, body]);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.#n}` });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
  }

  #answer(r: StandinRequest): [number, Record<string, unknown>] {
    const post = r.method === 'POST';
    if (post && r.path === '/v1/accounts') return [200, { id: this.#id('acct'), object: 'account', charges_enabled: false, email: r.form.email }];
    if (post && r.path === '/v1/account_links') return [200, { object: 'account_link', url: `https://connect.standin.test/setup/${r.form.account}` }];
    if (post && r.path === '/v1/products') return [200, { id: this.#id('prod'), object: 'product', name: r.form.name }];
    if (post && r.path === '/v1/prices') {
      if (this.failPricesOf !== null && Number(r.form.unit_amount) === this.failPricesOf) return [400, { error: { type: 'invalid_request_error', message: 'Price refused by the stand-in' } }];
      return [200, { id: this.#id('price'), object: 'price', unit_amount: Number(r.form.unit_amount), product: r.form.product }];
    }
    if (post && r.path === '/v1/customers') return [200, { id: this.#id('cus'), object: 'customer', email: r.form.email }];
    if (post && r.path === '/v1/checkout/sessions') {
      const id = this.#id('cs');
      this.lastSessionId = id;
      return [200, { id, object: 'checkout.session', mode: r.form.mode, url: `https://checkout.standin.test/${id}`, customer: r.form.customer ?? null }];
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(r.path);
    if (expire && post && this.closedSessions.has(expire[1]!)) return [400, { error: { type: 'invalid_request_error', message: 'Only Checkout Sessions with a status in ["open"] can be expired.' } }];
    if (expire && post) {
      this.closedSessions.add(expire[1]!);
      return [200, { id: expire[1], object: 'checkout.session', status: 'expired' }];
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(r.path);
    if (sub && r.method === 'GET') return [200, { id: sub[1], object: 'subscription', status: 'active', items: { object: 'list', data: [{ id: `si_${sub[1]}`, object: 'subscription_item' }] } }];
    if (sub && post) return [200, { id: sub[1], object: 'subscription', status: 'active', cancel_at_period_end: r.form.cancel_at_period_end === 'true' }];
    if (sub && r.method === 'DELETE' && this.failCancelOf.has(sub[1]!)) return [500, { error: { type: 'api_error', message: 'The stand-in refused to cancel' } }];
    if (sub && r.method === 'DELETE') return [200, { id: sub[1], object: 'subscription', status: 'canceled' }];
    // Receipts: the charge of a session's payment intent, or of a payment intent, carries the link;
    // expanded only when asked for, as Stripe does.
    const charge = (of: string) => ({ id: `ch_${of}`, object: 'charge', receipt_url: `https://pay.standin.test/receipts/${of}` });
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(r.path);
    if (session && r.method === 'GET') {
      const expanded = r.form['expand[0]'] === 'payment_intent.latest_charge';
      return [200, { id: session[1], object: 'checkout.session', mode: 'payment', payment_intent: expanded ? { id: `pi_of_${session[1]}`, object: 'payment_intent', latest_charge: charge(session[1]!) } : `pi_of_${session[1]}` }];
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(r.path);
    if (intent && r.method === 'GET') return [200, { id: intent[1], object: 'payment_intent', latest_charge: r.form['expand[0]'] === 'latest_charge' ? charge(intent[1]!) : `ch_${intent[1]}` }];
    if (post && r.path === '/v1/payment_intents') return [200, { id: this.#id('pi'), object: 'payment_intent', status: 'succeeded', amount: Number(r.form.amount) }];
    return [404, { error: { type: 'invalid_request_error', message: `stand-in has no ${r.method} ${r.path}` } }];
  }

  /** The requests to a path (method and path only), in order. */
  calls(): string[] {
    return this.log.map((r) => `${r.method} ${r.path}`);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}
