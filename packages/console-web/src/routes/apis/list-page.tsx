// The workspace's APIs (ApiSummary): the workspace's home after sign-in. One request of its own
// on open, GET /workspaces/{ws}/apis.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, call } from '../../api/client.js';
import type { ApiSummary } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { canEdit } from '../../app/roles.js';
import { useWorkspace } from '../../app/workspace.js';
import { StatusBadge } from '../../components/badge.js';
import { PageHeader } from '../../components/page.js';
import { Empty, QueryState } from '../../components/states.js';
import { formatCount } from '../../format/money.js';
import { formatAgo } from '../../format/time.js';

export const workspaceApisKey = (ws: string) => key('/api/workspaces/{ws}/apis', ws);

function CreateLink({ ws }: { ws: string }) {
  return (
    <Link to={`/workspaces/${ws}/apis/new`} className="button">
      Create API
    </Link>
  );
}

function ApiRow({ summary }: { summary: ApiSummary }) {
  return (
    <tr>
      <th scope="row">
        <Link to={`/apis/${summary.id}`}>{summary.name}</Link>
        <div className="small">
          <a href={summary.portal_url} rel="noopener">
            {summary.slug}
          </a>
        </div>
      </th>
      <td>
        <StatusBadge status={summary.status} />
      </td>
      <td className="plan-code">{summary.plan_code}</td>
      <td className="num">{formatCount(summary.customers)}</td>
      <td className="num">{formatCount(summary.month_requests)}</td>
      <td>{summary.sdk_last_seen_at ? formatAgo(summary.sdk_last_seen_at) : <span className="muted">not yet</span>}</td>
      <td className="nowrap">
        <Link to={`/apis/${summary.id}/connect`} aria-label={`Connect ${summary.name}`}>
          Connect
        </Link>{' '}
        ·{' '}
        <Link to={`/apis/${summary.id}/settings`} aria-label={`Settings of ${summary.name}`}>
          Settings
        </Link>
      </td>
    </tr>
  );
}

export function ApiListPage() {
  const { ws = '' } = useParams();
  const workspace = useWorkspace(ws);
  const editor = canEdit(workspace?.role);
  const list = useQuery({ queryKey: workspaceApisKey(ws), queryFn: () => call(api.GET('/api/workspaces/{ws}/apis', { params: { path: { ws } } })) });
  return (
    <>
      <PageHeader
        title="APIs"
        description={workspace ? `The APIs of ${workspace.name}: each has its own customers, keys, prices and portal.` : undefined}
        actions={editor && list.data?.apis?.length ? <CreateLink ws={ws} /> : null}
      />
      <QueryState query={list} loading="Loading the APIs…">
        {(body) =>
          body.apis?.length ? (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">API and portal</th>
                    <th scope="col">Status</th>
                    <th scope="col">Platform plan</th>
                    <th scope="col" className="num">Customers</th>
                    <th scope="col" className="num">Requests this month</th>
                    <th scope="col">SDK last seen</th>
                    <th scope="col"><span className="visually-hidden">Pages</span></th>
                  </tr>
                </thead>
                <tbody>
                  {body.apis.map((summary) => (
                    <ApiRow key={summary.id} summary={summary} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <Empty title="No APIs yet">
              {editor ? (
                <>
                  <p>Register your first API: Gatehouse gives it a portal for its customers, keys, prices and an SDK secret to meter it with.</p>
                  <CreateLink ws={ws} />
                </>
              ) : (
                <p>An editor of this workspace can register the first one.</p>
              )}
            </Empty>
          )
        }
      </QueryState>
    </>
  );
}
