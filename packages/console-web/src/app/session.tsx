// Who is signed in: GET /api/me, read once and kept in the query cache. Pages inside the frame are
// reached only with a session; without one the browser goes to sign in and comes back after.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { api, call, isUnauthenticated } from '../api/client.js';
import type { MeBody } from '../api/records.js';
import { ErrorState, Loading } from '../components/states.js';
import { key } from './query-keys.js';

export const meKey = key('/api/me');

export function useMeQuery() {
  return useQuery({ queryKey: meKey, queryFn: () => call(api.GET('/api/me')), retry: (count, error) => !isUnauthenticated(error) && count < 2 });
}

const SessionContext = createContext<MeBody | null>(null);

/** The signed-in person and their workspaces; only inside <RequireSession>. */
export function useSession(): MeBody {
  const me = useContext(SessionContext);
  if (!me) throw new Error('useSession outside RequireSession');
  return me;
}

/** Where a signed-out visitor is sent: the sign-in page, with the way back. */
export function signInPath(location: { pathname: string; search: string }) {
  const next = location.pathname + location.search;
  return next === '/' || next.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

/** A path of our own to go to after signing in (never another origin). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export function RequireSession({ children }: { children: ReactNode }) {
  const me = useMeQuery();
  const location = useLocation();
  if (me.isPending) return <Loading label="Opening the console…" />;
  if (isUnauthenticated(me.error)) return <Navigate to={signInPath(location)} replace />;
  if (me.error || !me.data) return <ErrorState error={me.error} retry={() => void me.refetch()} />;
  return <SessionContext.Provider value={me.data}>{children}</SessionContext.Provider>;
}

/** After signing in or out: forget every answer of the previous session. */
export function useResetSession() {
  const client = useQueryClient();
  return () => client.clear();
}
