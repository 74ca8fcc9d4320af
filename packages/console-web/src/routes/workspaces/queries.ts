// The workspace group's reads, keyed by operation (app/query-keys.ts), and what each change
// invalidates: members and invitations, keys, and the session's list of workspaces.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.js';
import { key } from '../../app/query-keys.js';
import { meKey } from '../../app/session.js';

export const membersKey = (ws: string) => key('/api/workspaces/{ws}/members', ws);
export const keysKey = (ws: string) => key('/api/workspaces/{ws}/keys', ws);
/** Every page of the log of a workspace; each filter adds its values after it. */
export const auditKey = (ws: string, ...filters: unknown[]) => key('/api/workspaces/{ws}/audit', ws, ...filters);

export function useMembers(ws: string) {
  return useQuery({ queryKey: membersKey(ws), queryFn: () => call(api.GET('/api/workspaces/{ws}/members', { params: { path: { ws } } })) });
}

export function useKeys(ws: string) {
  return useQuery({ queryKey: keysKey(ws), queryFn: () => call(api.GET('/api/workspaces/{ws}/keys', { params: { path: { ws } } })) });
}

/**
 * After a change of the person's own place in a workspace (a rename, a new or deleted workspace,
 * their own role, leaving): the session's workspaces, read again before the page moves on, so the
 * switcher and the pages agree with the API.
 */
export function useRefreshSession() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: meKey });
}
