// The three states every page shows besides its content: loading, empty and failed.
import type { ReactNode } from 'react';
import { ProblemError } from '../api/client.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** What went wrong, in the API's words, with a way to try again. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const problem = error instanceof ProblemError ? error : null;
  const title = problem?.status === 404 ? 'Not found' : problem?.status === 403 ? 'Not allowed' : 'Something went wrong';
  return (
    <div className="state" role="alert">
      <h2>{title}</h2>
      <p>{problem ? problem.message : 'The page could not be loaded.'}</p>
      {retry && problem?.status !== 404 && problem?.status !== 403 ? (
        <button type="button" className="secondary" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** Renders a query's loading or error state, or its content once the data is there. */
export function QueryState<T>({ query, loading, children }: { query: QueryLike<T>; loading?: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading {...(loading ? { label: loading } : {})} />;
  if (query.error || query.data === undefined) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
