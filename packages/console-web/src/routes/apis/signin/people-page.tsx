// The people who signed in to an API's sign-in service (/apis/:api/signin/people): search by name
// or e-mail and a status filter (both in the address, like the customers list), cursor paging,
// suspending (confirmed: it ends every session at once) and reactivating, and the roles each holds.
// Opens on the session, the API's record and the first page of people.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams, type SetURLSearchParams } from 'react-router';
import { api, call } from '../../../api/client.js';
import { canEdit } from '../../../app/roles.js';
import { useApiId, useApiQuery } from '../../../app/use-api.js';
import { Field, SelectField } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { Pager, useCursorStack } from '../../../components/pager.js';
import { Empty, QueryState } from '../../../components/states.js';
import { peopleKey } from './keys.js';
import { PeopleTable } from './people-table.js';
import { SigninNav } from './signin-nav.js';

interface PeopleFilters {
  q: string;
  status: '' | 'active' | 'suspended';
}

/** The filters an address names; a status the API would refuse reads as any. */
function filtersOf(params: URLSearchParams): PeopleFilters {
  const status = params.get('status');
  return { q: params.get('q') ?? '', status: status === 'active' || status === 'suspended' ? status : '' };
}

function PeopleFiltersBar({ filters, setParams }: { filters: PeopleFilters; setParams: SetURLSearchParams }) {
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
  return (
    <div className="toolbar">
      <form className="row" role="search" onSubmit={search}>
        <Field label="Search names and e-mails" type="search" name="q" maxLength={254} value={q} onChange={(event) => setQ(event.target.value)} />
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      <SelectField label="Status" value={filters.status} onChange={(event) => change('status', event.target.value)}>
        <option value="">Any status</option>
        <option value="active">Active</option>
        <option value="suspended">Suspended</option>
      </SelectField>
    </div>
  );
}

export function SigninPeoplePage() {
  const apiId = useApiId();
  const apiOut = useApiQuery(apiId).data;
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const pages = useCursorStack(JSON.stringify(filters));
  const list = useQuery({
    queryKey: [...peopleKey(apiId), filters, pages.cursor],
    queryFn: () =>
      call(
        api.GET('/api/apis/{api}/signin/people', {
          params: {
            path: { api: apiId },
            query: { ...(filters.q ? { q: filters.q } : {}), ...(filters.status ? { status: filters.status } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(filters.q || filters.status);
  return (
    <>
      <PageHeader title={apiOut ? `People of ${apiOut.name}` : 'People'} description="The people who made an account on the sign-in pages, newest first, with their roles." />
      <SigninNav apiId={apiId} />
      <PeopleFiltersBar key={filters.q} filters={filters} setParams={setParams} />
      <QueryState query={list} loading="Loading the people…">
        {(body) =>
          body.people.length ? (
            <>
              <PeopleTable apiId={apiId} people={body.people} editor={canEdit(apiOut?.role)} />
              <Pager pages={pages} nextCursor={body.next_cursor} label="Pages of people" />
            </>
          ) : (
            <div className="card">
              <Empty title={filtered ? 'Nobody matches' : 'Nobody has signed up yet'}>
                <p>{filtered ? 'Try another search or status.' : 'People appear here once they make an account on the sign-in pages of your apps.'}</p>
              </Empty>
            </div>
          )
        }
      </QueryState>
    </>
  );
}
