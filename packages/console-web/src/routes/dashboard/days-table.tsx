// The charts' text alternative: every day of the period as a row, newest first, with the exact
// numbers the bars are drawn from.
import type { StatsBody } from '../../api/records.js';
import { formatCount, formatMicro } from '../../format/money.js';

type DayStat = NonNullable<StatsBody['daily']>[number];

export function DaysTable({ days }: { days: DayStat[] }) {
  return (
    <details className="days-table">
      <summary>The {days.length} days as a table</summary>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Requests, billable requests, errors and charges of each day (UTC), newest first</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col" className="num">Requests</th>
              <th scope="col" className="num">Billable</th>
              <th scope="col" className="num">Errors</th>
              <th scope="col" className="num">Charged</th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((day) => (
              <tr key={day.day} className={day.requests === 0 ? 'quiet' : undefined}>
                <td>{day.day}</td>
                <td className="num">{formatCount(day.requests)}</td>
                <td className="num">{formatCount(day.billable)}</td>
                <td className="num">{formatCount(day.errors)}</td>
                <td className="num">{formatMicro(day.charged_micro)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
