// /workspaces/:ws/audit: the workspace's audit log, newest first, 50 events a page with "Older
// events" following next_before, narrowed by action, actor and customer (the address holds the
// filters). Opening it asks the API one thing: the first page.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call, ProblemError } from '../../api/client.js';
import type { WorkspaceOut } from '../../api/records.js';
import { PageHeader } from '../../components/page.js';
import { Empty, ErrorState, Loading } from '../../components/states.js';
import { AuditEventRow } from './audit-event.js';
import { AuditFilters, FILTER_NAMES, filterOf, type AuditFilter } from './audit-filters.js';
import { auditKey } from './queries.js';
import { WorkspaceGate } from './workspace-gate.js';

const PAGE_SIZE = 50;

function useAuditLog(ws: string, filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: auditKey(ws, filter),
    queryFn: ({ pageParam }) =>
      call(api.GET('/api/workspaces/{ws}/audit', { params: { path: { ws }, query: { ...filter, ...(pageParam ? { before: pageParam } : {}), limit: PAGE_SIZE } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_before,
  });
}

function AuditLog({ workspace }: { workspace: WorkspaceOut }) {
  const [search, setSearch] = useSearchParams();
  const filter = filterOf(search);
  const log = useAuditLog(workspace.id, filter);
  const events = log.data?.pages.flatMap((page) => page.events ?? []) ?? [];
  const apply = (next: AuditFilter) => setSearch(new URLSearchParams(FILTER_NAMES.flatMap((name) => (next[name] ? [[name, next[name]]] : []))));
  const filtered = Object.keys(filter).length > 0;
  // A filter the API refuses (422) is shown on its field; the log itself did not fail.
  const refused = log.error instanceof ProblemError && log.error.status === 422;
  return (
    <>
      <PageHeader title="Audit log" description={`Every change in ${workspace.name}: who made it, from where, and what it changed.`} />
      <AuditFilters filter={filter} events={events} error={log.error} onApply={apply} />
      {log.isPending ? (
        <Loading label="Loading events…" />
      ) : refused ? (
        <p className="alert error" role="alert">
          Check the filters marked above.
        </p>
      ) : log.error && !events.length ? (
        <ErrorState error={log.error} retry={() => void log.refetch()} />
      ) : !events.length ? (
        <Empty title={filtered ? 'No events match these filters' : 'No events yet'}>
          <p>{filtered ? 'Try a family of actions (member) instead of one action, or clear the filters.' : 'Changes to this workspace will show here.'}</p>
        </Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="audit-log">
              <caption className="visually-hidden">Audit events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">What happened</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => (
                  <AuditEventRow key={event.id} event={event} narrow={(more) => apply({ ...filter, ...more })} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            {log.hasNextPage ? (
              <button type="button" className="secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                {log.isFetchingNextPage ? 'Loading older events…' : 'Older events'}
              </button>
            ) : (
              <span className="muted small">The beginning of the log.</span>
            )}
            {log.error ? <span className="field-error">{log.error instanceof ProblemError ? log.error.message : 'The older events could not be loaded.'}</span> : null}
          </div>
        </>
      )}
    </>
  );
}

export function AuditPage() {
  return <WorkspaceGate>{(workspace) => <AuditLog workspace={workspace} />}</WorkspaceGate>;
}
