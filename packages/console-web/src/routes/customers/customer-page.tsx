// One customer of an API (/apis/:api/customers/:id): balance and standing, credit and debit,
// effective and custom limits, plan, keys, people and notes. One request of its own on open (the
// customer); the plans are asked for only when the plan control is opened.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, call } from '../../api/client.js';
import type { ApiOut, CustomerDetail } from '../../api/records.js';
import { canEdit } from '../../app/roles.js';
import { useApiId, useApiQuery } from '../../app/use-api.js';
import { PageHeader } from '../../components/page.js';
import { QueryState } from '../../components/states.js';
import { formatCount, formatMicro } from '../../format/money.js';
import { formatAgo, formatTime } from '../../format/time.js';
import { CreditForm } from './credit-form.js';
import { customerKey } from './customer-keys.js';
import { CustomerBadges } from './customers-table.js';
import { KeysCard } from './keys-card.js';
import { CustomLimitsForm, EffectiveLimits } from './limits-card.js';
import { MembersCard } from './members-card.js';
import { NotesCard } from './notes-card.js';
import { PaymentsCard } from './payments-card.js';
import { PlanCard } from './plan-card.js';
import { StatusActions } from './status-actions.js';

function Overview({ apiId, customer, editable }: { apiId: string; customer: CustomerDetail; editable: boolean }) {
  return (
    <section className="card" aria-labelledby="overview-title">
      <h2 id="overview-title" className="visually-hidden">
        Overview
      </h2>
      <div className="badges">
        <CustomerBadges customer={customer} />
      </div>
      {customer.archived_at ? (
        <p className="alert info">Archived {formatTime(customer.archived_at)}: its keys were revoked and it is kept for its record; nothing about it can change.</p>
      ) : null}
      {customer.is_test ? <p className="muted small">The test customer holds the Connect page's test key. Its requests count in totals, never in charges; it cannot be suspended or removed.</p> : null}
      <dl className="facts">
        <div>
          <dt>Balance</dt>
          <dd data-testid="customer-balance">{formatMicro(customer.balance_micro)}</dd>
        </div>
        <div>
          <dt>Requests this month</dt>
          <dd data-testid="customer-month-requests">{formatCount(customer.month_requests)}</dd>
        </div>
        <div>
          <dt>Last request</dt>
          <dd className="when">{formatAgo(customer.last_used_at)}</dd>
        </div>
        <div>
          <dt>Customer since</dt>
          <dd className="when">{formatTime(customer.created_at)}</dd>
        </div>
      </dl>
      <p>
        <Link to={`/apis/${apiId}/ledger?customer_id=${customer.id}`}>See ledger</Link>
      </p>
      {editable ? <StatusActions apiId={apiId} customer={customer} /> : null}
    </section>
  );
}

function Customer({ apiId, apiRecord, customer }: { apiId: string; apiRecord: ApiOut | undefined; customer: CustomerDetail }) {
  const editable = canEdit(apiRecord?.role) && !customer.archived_at;
  return (
    <>
      <PageHeader title={customer.name} description={customer.email} actions={<Link to={`/apis/${apiId}/customers`}>All customers</Link>} />
      <Overview apiId={apiId} customer={customer} editable={editable} />
      <div className="grid-2 customer-columns">
        {editable ? <CreditForm apiId={apiId} customerId={customer.id} /> : null}
        <section className="card" aria-labelledby="limits-title">
          <h2 id="limits-title">Limits</h2>
          {apiRecord ? <EffectiveLimits customer={customer} apiRecord={apiRecord} /> : null}
          {editable ? <CustomLimitsForm apiId={apiId} customer={customer} /> : null}
        </section>
      </div>
      <PlanCard apiId={apiId} customer={customer} editable={editable} />
      <PaymentsCard apiId={apiId} customerId={customer.id} />
      <KeysCard apiId={apiId} customer={customer} editable={editable} />
      <MembersCard customer={customer} />
      <NotesCard apiId={apiId} customer={customer} editable={editable} />
    </>
  );
}

export function CustomerPage() {
  const apiId = useApiId();
  const { id } = useParams();
  const customerId = id ?? '';
  const apiQuery = useApiQuery(apiId);
  const customer = useQuery({
    queryKey: customerKey(apiId, customerId),
    queryFn: () => call(api.GET('/api/apis/{api}/customers/{id}', { params: { path: { api: apiId, id: customerId } } })),
  });
  if (customer.data) return <Customer apiId={apiId} apiRecord={apiQuery.data} customer={customer.data} />;
  return (
    <>
      <PageHeader title="Customer" />
      <QueryState query={customer} loading="Loading the customer…">
        {() => null}
      </QueryState>
    </>
  );
}
