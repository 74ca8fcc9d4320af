// A customer's payments (top-ups, automatic top-ups, paid plan invoices) with the provider's receipt
// or invoice page, the credit each added, refunds and disputes with the credit they took back
// (those entries are in the ledger too, as refund and dispute). Asked for only when opened, so the
// customer's page keeps its requests on open.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client.js';
import type { ResponseOf } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { StatusBadge } from '../../components/badge.js';
import { Empty, QueryState } from '../../components/states.js';
import { formatCents, formatMicro } from '../../format/money.js';
import { formatTime } from '../../format/time.js';

type PaymentOut = ResponseOf<'/api/apis/{api}/customers/{id}/payments', 'get'>['payments'][number];

const KIND: Record<PaymentOut['kind'], string> = { topup: 'Top-up', auto_recharge: 'Automatic top-up', plan: 'Plan invoice' };
const BADGE: Record<PaymentOut['status'], string> = { paid: 'active', partially_refunded: 'pending', refunded: 'off', disputed: 'failed', dispute_won: 'active', dispute_lost: 'failed' };

function PaymentsTable({ apiId, customerId }: { apiId: string; customerId: string }) {
  const payments = useQuery({
    queryKey: key('/api/apis/{api}/customers/{id}/payments', apiId, customerId),
    queryFn: () => call(api.GET('/api/apis/{api}/customers/{id}/payments', { params: { path: { api: apiId, id: customerId }, query: { limit: 50 } } })),
  });
  return (
    <QueryState query={payments} loading="Loading the payments…">
      {(answer) =>
        answer.payments.length === 0 ? (
          <Empty title="No payments yet">
            <p>Top-ups and paid plan invoices are listed here once the provider confirms them.</p>
          </Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Payments, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Payment</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Credit added</th>
                  <th scope="col">Status</th>
                  <th scope="col">Receipt</th>
                </tr>
              </thead>
              <tbody>
                {answer.payments.map((payment) => (
                  <tr key={payment.id} data-testid={`payment-${payment.id}`}>
                    <td className="small">{formatTime(payment.created_at)}</td>
                    <td>
                      {KIND[payment.kind]}
                      <div className="small muted">{payment.description}</div>
                    </td>
                    <td>{formatCents(payment.amount_cents)}</td>
                    <td>{formatMicro(payment.credit_micro)}</td>
                    <td>
                      <StatusBadge status={BADGE[payment.status]} label={payment.status.replace(/_/g, ' ')} />
                      {payment.refunded_cents > 0 ? <div className="small">{formatCents(payment.refunded_cents)} refunded</div> : null}
                      {payment.credit_taken_back_micro > 0 ? <div className="small muted">{formatMicro(payment.credit_taken_back_micro)} credit taken back</div> : null}
                    </td>
                    <td>
                      {payment.url ? (
                        <a href={payment.url} target="_blank" rel="noreferrer">
                          {payment.kind === 'plan' ? 'Invoice' : 'Receipt'}
                          <span className="visually-hidden"> of {formatTime(payment.created_at)} (opens the provider's page)</span>
                        </a>
                      ) : (
                        <span className="muted">none</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryState>
  );
}

export function PaymentsCard({ apiId, customerId }: { apiId: string; customerId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card" aria-labelledby="payments-title">
      <h2 id="payments-title">Payments</h2>
      {open ? (
        <>
          <PaymentsTable apiId={apiId} customerId={customerId} />
          <p className="small">
            Refunds and disputes are made in the payments provider’s dashboard; the credit they take back is in the <Link to={`/apis/${apiId}/ledger?customer_id=${customerId}`}>ledger</Link>.
          </p>
        </>
      ) : (
        <button type="button" className="secondary" onClick={() => setOpen(true)}>
          Show payments
        </button>
      )}
    </section>
  );
}
