// The one way the console speaks to the console API (DESIGN section 11): openapi-fetch on the types
// generated from /api/openapi.json. The session is the HttpOnly cookie the sign-in steps set; the
// app never sees a token. `X-Requested-With` on every request is what the API asks of cookie
// sessions that change something (CSRF), so no request can forget it.
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  headers: { 'x-requested-with': 'gatehouse-console' },
});

/** One entry of a problem's `errors`: the field it names (`body.name`) and what is wrong. */
export interface ProblemDetail {
  location?: string;
  message?: string;
  value?: unknown;
}

/** The console API's error body (spec 2.6), application/problem+json. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: ProblemDetail[] | null;
}

/** A refusal of the API, carried to the page that made the call. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail ?? problem.title ?? `The server answered ${status}`);
    this.name = 'ProblemError';
  }

  /** The problem's code, the last part of its type (`urn:gatehouse:problem:invalid_code`). */
  get code(): string {
    return this.problem.type?.split(':').at(-1) ?? '';
  }
}

/** Whether an error is the API saying the session is missing or over. */
export const isUnauthenticated = (error: unknown) => error instanceof ProblemError && error.status === 401;

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a call, or its problem thrown as a ProblemError (what TanStack Query expects of a
 * query function). A body-less success (204) is `undefined`.
 */
export async function call<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch {
    throw new ProblemError(0, { title: 'The console cannot reach the server', detail: 'Check your connection, then try again.' });
  }
  if (result.response.ok) return result.data as T;
  const body = result.error;
  const problem: Problem = body && typeof body === 'object' ? (body as Problem) : { title: result.response.statusText || `HTTP ${result.response.status}` };
  throw new ProblemError(result.response.status, problem);
}
