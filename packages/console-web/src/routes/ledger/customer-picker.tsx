// The ledger's customer filter: the customer in the address (?customer_id=, as the customer page's
// "See ledger" links), or one picked from a search of the API's customers. The customers are
// asked for only once the person opens the picker, so the ledger costs one request on open.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.js';
import { key } from '../../app/query-keys.js';
import { Field, FormError } from '../../components/field.js';
import { Loading } from '../../components/states.js';

interface PickerProps {
  apiId: string;
  /** The customer filtered on, with its name when an entry told it. */
  current: { id: string; name: string | undefined } | null;
  onPick: (customerId: string | null) => void;
}

function Search({ apiId, onPick, onClose }: { apiId: string; onPick: (customerId: string) => void; onClose: () => void }) {
  const [q, setQ] = useState('');
  const query = q.trim();
  const found = useQuery({
    queryKey: key('/api/apis/{api}/customers', apiId, { q: query, picker: true }),
    queryFn: () => call(api.GET('/api/apis/{api}/customers', { params: { path: { api: apiId }, query: { limit: 10, ...(query ? { q: query } : {}) } } })),
  });
  const customers = found.data?.customers ?? [];
  return (
    <div className="customer-picker card" role="group" aria-label="Choose a customer">
      <Field label="Find a customer" hint="Part of a name or e-mail address" type="search" autoFocus autoComplete="off" value={q} onChange={(event) => setQ(event.target.value)} />
      {found.isPending ? <Loading label="Looking for customers…" /> : null}
      <FormError error={found.error} />
      {found.data && !customers.length ? <p className="muted">No customer matches.</p> : null}
      <ul className="picker-results">
        {customers.map((customer) => (
          <li key={customer.id}>
            <button type="button" className="secondary" onClick={() => onPick(customer.id)}>
              {customer.name} <span className="muted small">{customer.email}</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="link" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

export function CustomerPicker({ apiId, current, onPick }: PickerProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className="field ledger-customer" role="group" aria-labelledby="ledger-customer-label">
      <span className="label" id="ledger-customer-label">
        Customer
      </span>
      <div className="row">
        <span data-testid="ledger-customer">{current ? (current.name ?? current.id) : 'All customers'}</span>
        <button type="button" className="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
          Choose a customer
        </button>
        {current ? (
          <button type="button" className="secondary" onClick={() => onPick(null)}>
            All customers
          </button>
        ) : null}
      </div>
      {open ? (
        <Search
          apiId={apiId}
          onPick={(customerId) => {
            setOpen(false);
            onPick(customerId);
          }}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}
