// One page of customers: name (linking to the customer), e-mail, status, plan, balance and this
// month's requests, written from the API's integers.
import { Link } from 'react-router';
import type { CustomerSummary } from '../../api/records.js';
import { StatusBadge } from '../../components/badge.js';
import { formatCount, formatMicro } from '../../format/money.js';
import { formatAgo } from '../../format/time.js';

export function CustomerBadges({ customer }: { customer: Pick<CustomerSummary, 'status' | 'is_test' | 'archived_at'> }) {
  return (
    <>
      <StatusBadge status={customer.status} label={customer.status === 'pending' ? 'pending approval' : customer.status} />
      {customer.is_test ? <span className="badge test">test customer</span> : null}
      {customer.archived_at ? <span className="badge archived">archived</span> : null}
    </>
  );
}

export function CustomersTable({ apiId, customers }: { apiId: string; customers: CustomerSummary[] }) {
  return (
    <div className="table-wrap">
      <table data-testid="customers">
        <thead>
          <tr>
            <th scope="col">Customer</th>
            <th scope="col">Status</th>
            <th scope="col">Plan</th>
            <th scope="col" className="num">Balance</th>
            <th scope="col" className="num">Requests this month</th>
            <th scope="col">Last request</th>
          </tr>
        </thead>
        <tbody>
          {customers.map((customer) => (
            <tr key={customer.id} data-customer={customer.id}>
              <td>
                <Link to={`/apis/${apiId}/customers/${customer.id}`}>{customer.name}</Link>
                <div className="muted small">{customer.email}</div>
              </td>
              <td>
                <span className="badges">
                  <CustomerBadges customer={customer} />
                </span>
              </td>
              <td>{customer.plan_name ?? <span className="muted">none</span>}</td>
              <td className="num" data-testid="balance">
                {formatMicro(customer.balance_micro)}
              </td>
              <td className="num" data-testid="month-requests">
                {formatCount(customer.month_requests)}
              </td>
              <td className="nowrap">{formatAgo(customer.last_used_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
