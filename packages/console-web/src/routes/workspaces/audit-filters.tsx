// The audit log's filters (docs/decisions.md "Audit filters"): an action or its family typed as
// text, an actor and a customer by id, each suggested from the events already on the page (no
// request of its own). They live in the address, so a filtered log can be linked and gone back to.
import { useId, type FormEvent } from 'react';
import type { AuditOut } from '../../api/records.js';
import { Field, fieldErrors } from '../../components/field.js';

export interface AuditFilter {
  action?: string;
  actor_id?: string;
  customer_id?: string;
}

export const FILTER_NAMES = ['action', 'actor_id', 'customer_id'] as const;

/** The filters of an address's query, without empty ones. */
export function filterOf(search: URLSearchParams): AuditFilter {
  const filter: AuditFilter = {};
  for (const name of FILTER_NAMES) {
    const value = search.get(name)?.trim();
    if (value) filter[name] = value;
  }
  return filter;
}

/** `member.invite` belongs to the family `member`. */
export const familyOf = (action: string) => action.split('.')[0] ?? action;

function unique<T>(items: T[], by: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(by(item))) seen.set(by(item), item);
  return [...seen.values()];
}

export function AuditFilters({ filter, events, error, onApply }: { filter: AuditFilter; events: AuditOut[]; error: unknown; onApply: (filter: AuditFilter) => void }) {
  const ids = { actions: useId(), actors: useId(), customers: useId() };
  const errors = fieldErrors(error);
  const actions = [...new Set(events.flatMap((e) => [familyOf(e.action), e.action]))].sort();
  const actors = unique(events, (e) => e.actor_id);
  const customers = unique(
    events.filter((e) => e.customer_id),
    (e) => e.customer_id ?? '',
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onApply(filterOf(new URLSearchParams(FILTER_NAMES.map((name) => [name, String(form.get(name) ?? '')]))));
  };
  return (
    <form className="card audit-filters" onSubmit={submit} aria-label="Filter the audit log" key={JSON.stringify(filter)}>
      <div className="toolbar">
        <Field label="Action" name="action" list={ids.actions} defaultValue={filter.action ?? ''} maxLength={64} autoComplete="off" hint="member.invite, or a whole family: member" error={errors.action} />
        <Field label="Actor" name="actor_id" list={ids.actors} defaultValue={filter.actor_id ?? ''} maxLength={64} autoComplete="off" hint="A person’s, key’s or system’s id." error={errors.actor_id} />
        <Field label="Customer" name="customer_id" list={ids.customers} defaultValue={filter.customer_id ?? ''} maxLength={64} autoComplete="off" hint="A customer’s id, cus_…" error={errors.customer_id} />
      </div>
      <datalist id={ids.actions}>
        {actions.map((action) => (
          <option key={action} value={action} />
        ))}
      </datalist>
      <datalist id={ids.actors}>
        {actors.map((e) => (
          <option key={e.actor_id} value={e.actor_id}>
            {e.actor_name}
          </option>
        ))}
      </datalist>
      <datalist id={ids.customers}>
        {customers.map((e) => (
          <option key={e.customer_id} value={e.customer_id}>
            {e.customer_name}
          </option>
        ))}
      </datalist>
      <div className="actions">
        <button type="submit">Apply filters</button>
        {Object.keys(filter).length ? (
          <button type="button" className="secondary" onClick={() => onApply({})}>
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}
