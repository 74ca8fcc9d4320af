// One page of ledger entries: when, whose, what kind, why (usage shows its day and requests), who
// made it, its reference, and the amount with its sign, written exactly from micro units.
import { Link } from 'react-router';
import type { LedgerEntry } from '../../api/records.js';
import { formatCount, formatSignedMicro } from '../../format/money.js';
import { formatDay, formatTime } from '../../format/time.js';
import { kindName } from './kinds.js';

function What({ entry }: { entry: LedgerEntry }) {
  if (entry.kind === 'usage') {
    return (
      <>
        {formatCount(entry.requests)} {entry.requests === 1 ? 'request' : 'requests'} on {entry.usage_day ? formatDay(entry.usage_day) : formatDay(entry.created_at)}
      </>
    );
  }
  return <>{entry.note}</>;
}

export function LedgerTable({ apiId, entries }: { apiId: string; entries: LedgerEntry[] }) {
  return (
    <div className="table-wrap">
      <table data-testid="ledger">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Customer</th>
            <th scope="col">Kind</th>
            <th scope="col">Details</th>
            <th scope="col">By</th>
            <th scope="col" className="num">Amount</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-entry={entry.id}>
              <td className="nowrap">{formatTime(entry.created_at)}</td>
              <td>
                <Link to={`/apis/${apiId}/customers/${entry.customer_id}`}>{entry.customer_name ?? entry.customer_id}</Link>
              </td>
              <td>{kindName(entry.kind)}</td>
              <td>
                <What entry={entry} />
                {entry.ref ? <div className="muted small">Reference {entry.ref}</div> : null}
              </td>
              <td>{entry.actor}</td>
              <td className={`num ${entry.amount_micro > 0 ? 'credit' : 'debit'}`} data-testid="amount">
                {formatSignedMicro(entry.amount_micro)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
