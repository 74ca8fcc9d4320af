// The busiest customers this month (StatsBody.top_customers), each linking to its page.
import { Link } from 'react-router';
import type { StatsBody } from '../../api/records.js';
import { formatCount, formatMicro } from '../../format/money.js';

type TopCustomer = NonNullable<StatsBody['top_customers']>[number];

export function TopCustomers({ apiId, customers }: { apiId: string; customers: TopCustomer[] }) {
  if (!customers.length) return <p className="muted">No customer has made a request this month yet.</p>;
  return (
    <div className="table-wrap">
      <table data-testid="top-customers">
        <thead>
          <tr>
            <th scope="col">Customer</th>
            <th scope="col" className="num">Requests this month</th>
            <th scope="col" className="num">Charged this month</th>
            <th scope="col" className="num">Balance</th>
          </tr>
        </thead>
        <tbody>
          {customers.map((customer) => (
            <tr key={customer.id}>
              <td>
                <Link to={`/apis/${apiId}/customers/${customer.id}`}>{customer.name}</Link>
              </td>
              <td className="num">{formatCount(customer.requests)}</td>
              <td className="num">{formatMicro(customer.charged_micro)}</td>
              <td className="num">{formatMicro(customer.balance_micro)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
