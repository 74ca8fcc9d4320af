// An API's credit ledger (/apis/:api/ledger): every change of every balance, newest first, paged
// by cursor, filtered by customer and by kind (both kept in the address: ?customer_id=&kind=).
// One request of its own on open (the page of entries).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../api/client.js';
import { key } from '../../app/query-keys.js';
import { useApiId } from '../../app/use-api.js';
import { SelectField } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { Pager, useCursorStack } from '../../components/pager.js';
import { Empty, QueryState } from '../../components/states.js';
import { CustomerPicker } from './customer-picker.js';
import { isKind, KIND_NAMES, KINDS } from './kinds.js';
import { LedgerTable } from './ledger-table.js';

export function LedgerPage() {
  const apiId = useApiId();
  const [params, setParams] = useSearchParams();
  const customerId = params.get('customer_id') || null;
  const kindParam = params.get('kind');
  const kind = isKind(kindParam) ? kindParam : null;
  const limitParam = Number(params.get('limit'));
  const limit = Number.isInteger(limitParam) && limitParam >= 1 && limitParam <= 200 ? limitParam : 50;
  const filters = { customerId, kind, limit };
  const pages = useCursorStack(JSON.stringify(filters));
  const ledger = useQuery({
    queryKey: key('/api/apis/{api}/ledger', apiId, filters, pages.cursor ?? null),
    queryFn: () =>
      call(
        api.GET('/api/apis/{api}/ledger', {
          params: {
            path: { api: apiId },
            query: { limit, ...(customerId ? { customer_id: customerId } : {}), ...(kind ? { kind } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const change = (name: string, value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });
  const entries = ledger.data?.entries ?? [];
  const shownName = customerId ? entries.find((entry) => entry.customer_id === customerId)?.customer_name : undefined;
  return (
    <>
      <PageHeader title="Ledger" description="Every change of every customer's balance, newest first. Amounts are in the API's currency, exact to the millionth." />
      <div className="toolbar ledger-filters">
        <CustomerPicker apiId={apiId} current={customerId ? { id: customerId, name: shownName } : null} onPick={(id) => change('customer_id', id)} />
        <SelectField label="Kind" value={kind ?? ''} onChange={(event) => change('kind', event.target.value)}>
          <option value="">Every kind</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_NAMES[k]}
            </option>
          ))}
        </SelectField>
      </div>
      <QueryState query={ledger} loading="Loading the ledger…">
        {(body) =>
          body.entries?.length ? (
            <>
              <LedgerTable apiId={apiId} entries={body.entries} />
              <Pager pages={pages} nextCursor={body.next_cursor} label="Ledger pages" />
            </>
          ) : (
            <div className="card">
              <Empty title={customerId || kind ? 'No entries match' : 'No entries yet'}>
                <p>{customerId || kind ? 'Try another customer or kind.' : "Welcome credit, credit you add by hand, top-ups and each day's usage show here."}</p>
              </Empty>
            </div>
          )
        }
      </QueryState>
    </>
  );
}
