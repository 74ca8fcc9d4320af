import type { MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';
import type { Principal, Verifier } from '../verify/verifier.js';

// Structural types: the SDK does not depend on hono.
interface HonoLikeContext {
  req: { header(name: string): string | undefined };
  res: Response;
  set(key: 'gatehouse', value: MeteredCustomer): void;
  set(key: 'principal', value: Principal): void;
  json(body: unknown, status?: number, headers?: Record<string, string>): Response;
}

/**
 * Hono middleware: denied requests are answered here; admitted ones get `c.get('gatehouse')`.
 * @example
 * app.use('/api/*', gatehouse(meter));
 */
export function gatehouse(meter: Meter) {
  return async (c: HonoLikeContext, next: () => Promise<void>): Promise<Response | void> => {
    const decision = await meter.admit({ key: c.req.header(meter.options.keyHeader), authorization: c.req.header('authorization') });
    if (!decision.ok) return c.json(decision.body, decision.status, decision.headers);
    c.set('gatehouse', decision.customer);
    try {
      await next();
      decision.finish(c.res.status);
    } catch (error) {
      decision.finish(500);
      throw error;
    }
  };
}

// Structural: only what verify uses, so a context typed with Variables of its own fits.
interface HonoVerifyContext {
  req: { header(name: string): string | undefined };
  res: Response;
  env?: unknown;
  set(key: 'principal', value: Principal): void;
  json(body: unknown, status?: number, headers?: Record<string, string>): Response;
}

/** What {@link verify} checks besides the credential. */
export interface VerifyOptions {
  /** Permissions the routes behind it need: a credential lacking one gets 403 `insufficient_scope`. */
  scopes?: readonly string[];
  /**
   * The client's address for the bad-key guard: Hono has no one way to read it (it depends on the
   * runtime), so pass e.g. `(c) => getConnInfo(c).remote.address` from `@hono/node-server/conninfo`.
   * Without it every request shares one address.
   */
  clientAddress?: (c: HonoVerifyContext) => string | undefined;
}

/**
 * Hono middleware admitting requests by an access token or an end-user API key
 * (`Authorization: Bearer`); refusals are answered here, admitted requests get
 * `c.get('principal')` (and `c.get('gatehouse')` when the verifier meters).
 * @example
 * app.get('/whoami', verify(verifier, { scopes: ['read:weather'] }), (c) => c.json(c.get('principal')));
 */
export function verify(verifier: Verifier, options: VerifyOptions = {}) {
  const scopes = options.scopes ?? [];
  return async (c: HonoVerifyContext, next: () => Promise<void>): Promise<Response | void> => {
    const result = await verifier.check({ authorization: c.req.header('authorization'), clientAddress: options.clientAddress?.(c) ?? '', scopes });
    if (!result.ok) return c.json(result.body, result.status, result.headers);
    c.set('principal', result.principal);
    if (result.customer) (c as unknown as HonoLikeContext).set('gatehouse', result.customer);
    try {
      await next();
      result.finish(c.res.status);
    } catch (error) {
      result.finish(500);
      throw error;
    }
  };
}
