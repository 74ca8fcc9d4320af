// An API's dashboard (/apis/:api): StatsBody as figures, the platform allowance as a bar, 30 days
// of requests, billable requests, errors and charges as charts with a table of the days, and the
// busiest customers. One request of its own on open (GET …/stats); the API record is the frame's.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../api/client.js';
import type { ApiOut, StatsBody } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { useApiId, useApiQuery } from '../../app/use-api.js';
import { PageHeader } from '../../components/page.js';
import { Empty, QueryState } from '../../components/states.js';
import { formatCount, formatMicro } from '../../format/money.js';
import { DayChart, Legend } from './day-chart.js';
import { DaysTable } from './days-table.js';
import { Figures } from './figures.js';
import { TopCustomers } from './top-customers.js';

export const STATS_DAYS = 30;

export const statsKey = (apiId: string) => key('/api/apis/{api}/stats', apiId, STATS_DAYS);

const REQUEST_SERIES = [
  { label: 'All requests', className: 'bar-requests' },
  { label: 'Billable', className: 'bar-billable' },
  { label: 'Errors (5xx)', className: 'bar-errors' },
];

function Charts({ stats }: { stats: StatsBody }) {
  const days = stats.daily ?? [];
  if (!days.length) return null;
  const from = days[0]!.day;
  const to = days.at(-1)!.day;
  const total = (pick: (d: (typeof days)[number]) => number) => days.reduce((sum, d) => sum + pick(d), 0);
  const charged = days.reduce((sum, d) => sum + BigInt(d.charged_micro), 0n);
  const requestsSummary = `${formatCount(total((d) => d.requests))} requests from ${from} to ${to} (UTC), ${formatCount(total((d) => d.billable))} billable and ${formatCount(total((d) => d.errors))} errors.`;
  const chargesSummary = `${formatMicro(charged)} charged to customers from ${from} to ${to} (UTC).`;
  return (
    <>
      <h2>Requests per day</h2>
      <Legend series={REQUEST_SERIES} />
      <figure className="chart-figure">
        <DayChart
          id="requests-chart"
          title={`Requests per day, ${from} to ${to}`}
          description={`${requestsSummary} The table of the days below has every number.`}
          days={days.map((d) => d.day)}
          series={[
            { ...REQUEST_SERIES[0]!, values: days.map((d) => d.requests) },
            { ...REQUEST_SERIES[1]!, values: days.map((d) => d.billable) },
            { ...REQUEST_SERIES[2]!, values: days.map((d) => d.errors) },
          ]}
          format={formatCount}
        />
        <figcaption>{requestsSummary}</figcaption>
      </figure>
      <h2>Charges per day</h2>
      <figure className="chart-figure">
        <DayChart
          id="charges-chart"
          title={`Charges per day, ${from} to ${to}`}
          description={`${chargesSummary} The table of the days below has every number.`}
          days={days.map((d) => d.day)}
          series={[{ label: 'Charged', className: 'bar-charged', values: days.map((d) => d.charged_micro) }]}
          format={formatMicro}
        />
        <figcaption>{chargesSummary}</figcaption>
      </figure>
      <DaysTable days={days} />
    </>
  );
}

function Dashboard({ apiRecord, stats }: { apiRecord: ApiOut; stats: StatsBody }) {
  const noTraffic = !apiRecord.first_usage_at && stats.requests_month === 0 && (stats.daily ?? []).every((d) => d.requests === 0);
  return (
    <>
      <Figures apiId={apiRecord.id} stats={stats} />
      {noTraffic ? (
        <div className="card">
          <Empty title="No traffic yet">
            <p>Once your API runs the Gatehouse SDK and serves its first metered request, its requests, charges and busiest customers show here.</p>
            <p>
              <Link className="button" to={`/apis/${apiRecord.id}/connect`}>
                Connect your API
              </Link>
            </p>
          </Empty>
        </div>
      ) : (
        <>
          <Charts stats={stats} />
          <h2>Top customers this month</h2>
          <TopCustomers apiId={apiRecord.id} customers={stats.top_customers ?? []} />
        </>
      )}
    </>
  );
}

export function DashboardPage() {
  const apiId = useApiId();
  const apiQuery = useApiQuery(apiId);
  const stats = useQuery({
    queryKey: statsKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/stats', { params: { path: { api: apiId }, query: { days: STATS_DAYS } } })),
  });
  return (
    <>
      <PageHeader title={apiQuery.data ? `${apiQuery.data.name}: dashboard` : 'Dashboard'} description="Requests, charges and customers of this API; days are in UTC." />
      <QueryState query={apiQuery} loading="Loading the API…">
        {(apiRecord) => (
          <QueryState query={stats} loading="Loading the statistics…">
            {(body) => <Dashboard apiRecord={apiRecord} stats={body} />}
          </QueryState>
        )}
      </QueryState>
    </>
  );
}
