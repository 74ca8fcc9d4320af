// The customers list's filters, kept in the address (?q=&status=&archived=&limit=) so a filtered
// list can be linked to and the back button undoes a change.
import { useState, type FormEvent } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { Field, SelectField } from '../../components/field.js';
import { Switch } from '../../components/switch.js';
import type { CustomerFilters } from './customer-keys.js';

export const PAGE_SIZES = [10, 25, 50, 100, 200];
const STATUSES = ['active', 'pending', 'suspended'] as const;

/** The filters an address names; a value the API would refuse falls back to the default. */
export function filtersOf(params: URLSearchParams): CustomerFilters {
  const status = params.get('status') ?? '';
  const limit = Number(params.get('limit'));
  return {
    q: params.get('q') ?? '',
    status: (STATUSES as readonly string[]).includes(status) ? (status as CustomerFilters['status']) : '',
    archived: params.get('archived') === 'true',
    limit: Number.isInteger(limit) && limit >= 1 && limit <= 200 ? limit : 50,
  };
}

export function CustomerFiltersBar({ filters, setParams }: { filters: CustomerFilters; setParams: SetURLSearchParams }) {
  const [q, setQ] = useState(filters.q);
  const change = (name: string, value: string) =>
    setParams((params) => {
      const next = new URLSearchParams(params);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });
  const search = (event: FormEvent) => {
    event.preventDefault();
    change('q', q.trim());
  };
  const sizes = PAGE_SIZES.includes(filters.limit) ? PAGE_SIZES : [...PAGE_SIZES, filters.limit].sort((a, b) => a - b);
  return (
    <div className="toolbar customer-filters">
      <form className="row" role="search" onSubmit={search}>
        <Field label="Search names and e-mails" type="search" name="q" maxLength={254} value={q} onChange={(event) => setQ(event.target.value)} />
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      <SelectField label="Status" value={filters.status} onChange={(event) => change('status', event.target.value)}>
        <option value="">Any status</option>
        <option value="active">Active</option>
        <option value="pending">Pending approval</option>
        <option value="suspended">Suspended</option>
      </SelectField>
      <SelectField label="Per page" value={String(filters.limit)} onChange={(event) => change('limit', event.target.value === '50' ? '' : event.target.value)}>
        {sizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </SelectField>
      <Switch label="Archived customers only" checked={filters.archived} onChange={(checked) => change('archived', checked ? 'true' : '')} />
    </div>
  );
}
