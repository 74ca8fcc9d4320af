// The API a page is about (/apis/:api/…), shared by every page of an API: its record tells the
// caller's role and the workspace it belongs to.
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, call } from '../api/client.js';
import { key } from './query-keys.js';

export const apiKey = (apiId: string) => key('/api/apis/{api}', apiId);

export function useApiQuery(apiId: string | undefined) {
  return useQuery({
    queryKey: apiKey(apiId ?? ''),
    queryFn: () => call(api.GET('/api/apis/{api}', { params: { path: { api: apiId! } } })),
    enabled: Boolean(apiId),
  });
}

/** The `:api` of the address; pages under /apis/:api are only reached with one. */
export function useApiId(): string {
  const { api: apiId } = useParams();
  if (!apiId) throw new Error('no :api in this route');
  return apiId;
}

/**
 * The API of the page and one list of it, as one query for `QueryState`: the page renders when
 * both arrived, shows the first error of either, and "try again" asks for both.
 */
export function useApiAndList<T>(apiId: string, list: UseQueryResult<T>) {
  const apiQuery = useApiQuery(apiId);
  return {
    data: apiQuery.data && list.data ? { apiOut: apiQuery.data, list: list.data } : undefined,
    error: apiQuery.error ?? list.error,
    isPending: apiQuery.isPending || list.isPending,
    refetch: () => Promise.all([apiQuery.refetch(), list.refetch()]),
  };
}
