import type { MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';

// Structural types: the SDK does not depend on hono.
interface HonoLikeContext {
  req: { header(name: string): string | undefined };
  res: Response;
  set(key: 'gatehouse', value: MeteredCustomer): void;
  json(body: unknown, status?: number, headers?: Record<string, string>): Response;
}

/**
 * Hono middleware: denied requests are answered here; admitted ones get `c.get('gatehouse')`.
 * @example
 * app.use('/api/*', gatehouse(meter));
 */
export function gatehouse(meter: Meter) {
  return async (c: HonoLikeContext, next: () => Promise<void>): Promise<Response | void> => {
    const decision = await meter.admit({ key: c.req.header(meter.options.keyHeader) });
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
