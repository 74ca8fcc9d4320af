/**
 * GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp): `rps` requests
 * per second with a burst of at most one second's worth. Unlike a fixed one-second window it
 * never lets twice the rate through at a window edge.
 */
export interface Gcra {
  /** Theoretical arrival time of the next request, epoch ms. */
  tat: number;
}

/**
 * Whether a request at `now` fits, without taking it: on success, `tat` is what `state.tat`
 * becomes if the request is admitted; on refusal, the ms to wait. The meter checks every other
 * limit before it commits `tat`, so a request refused for quota or credit uses none of the rate.
 */
export function gcraCheck(state: Gcra, rps: number, now: number): { ok: true; tat: number } | { ok: false; retryAfterMs: number } {
  const interval = 1000 / rps;
  const burst = Math.max(1, rps) * interval; // one second's worth
  const tat = Math.max(state.tat, now);
  const allowAt = tat + interval - burst;
  if (allowAt > now) return { ok: false, retryAfterMs: allowAt - now };
  return { ok: true, tat: tat + interval };
}

/** Admits or refuses a request at `now`; on refusal returns the ms to wait. Mutates `state` only on admission. */
export function gcraTake(state: Gcra, rps: number, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
  const checked = gcraCheck(state, rps, now);
  if (!checked.ok) return checked;
  state.tat = checked.tat;
  return { ok: true };
}
