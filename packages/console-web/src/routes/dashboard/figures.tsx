// StatsBody's figures (spec 2.1): requests today and this month, charged and top-ups this month,
// customers, active and pending, and the platform allowance used as a bar.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { StatsBody } from '../../api/records.js';
import { Meter } from '../../components/meter.js';
import { formatCount, formatMicro } from '../../format/money.js';

function Figure({ label, value, sub, testId }: { label: string; value: string; sub?: ReactNode; testId: string }) {
  return (
    <div className="card stat">
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {value}
      </div>
      {sub ? <div className="sub">{sub}</div> : null}
    </div>
  );
}

export function Figures({ apiId, stats }: { apiId: string; stats: StatsBody }) {
  const percent = stats.platform_limit > 0 ? Math.floor((stats.requests_month * 100) / stats.platform_limit) : 0;
  return (
    <>
      <div className="cards">
        <Figure label="Requests today" value={formatCount(stats.requests_today)} sub="UTC, the test key included" testId="requests-today" />
        <Figure label="Requests this month" value={formatCount(stats.requests_month)} sub="what the platform plan counts" testId="requests-month" />
        <Figure label="Charged this month" value={formatMicro(stats.charged_month_micro)} sub="usage of real customers" testId="charged-month" />
        <Figure label="Top-ups this month" value={formatMicro(stats.topups_month_micro)} sub="bought through payments" testId="topups-month" />
      </div>
      <div className="cards">
        <Figure label="Customers" value={formatCount(stats.customers)} sub={<Link to={`/apis/${apiId}/customers`}>See customers</Link>} testId="customers" />
        <Figure label="Active this month" value={formatCount(stats.active_customers)} sub="customers with requests" testId="active-customers" />
        <Figure
          label="Pending approval"
          value={formatCount(stats.pending_customers)}
          sub={stats.pending_customers > 0 ? <Link to={`/apis/${apiId}/customers?status=pending`}>Review pending customers</Link> : 'nobody is waiting'}
          testId="pending-customers"
        />
      </div>
      {/* A platform_limit of 0 is no allowance at all to measure against (the self-hosted plan). */}
      {stats.platform_limit > 0 ? (
        <div className="card">
          <Meter
            label="Platform allowance this month"
            value={stats.requests_month}
            max={stats.platform_limit}
            valueText={`${formatCount(stats.requests_month)} of ${formatCount(stats.platform_limit)} requests (${percent}%)`}
          />
        </div>
      ) : null}
    </>
  );
}
