// An API's customers (/apis/:api/customers): search, a status filter, archived customers, cursor
// paging, and the forms to add or invite a customer. One request of its own on open (the page).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../api/client.js';
import { canEdit } from '../../app/roles.js';
import { useApiId, useApiQuery } from '../../app/use-api.js';
import { PageHeader } from '../../components/page.js';
import { Pager, useCursorStack } from '../../components/pager.js';
import { Empty, QueryState } from '../../components/states.js';
import { CustomerFiltersBar, filtersOf } from './customer-filters.js';
import { CreateCustomerForm, InviteCustomerForm } from './customer-forms.js';
import { CustomerInvites } from './customer-invites.js';
import { customersPageKey } from './customer-keys.js';
import { CustomersTable } from './customers-table.js';

export function CustomersPage() {
  const apiId = useApiId();
  const role = useApiQuery(apiId).data?.role;
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const pages = useCursorStack(JSON.stringify(filters));
  const list = useQuery({
    queryKey: customersPageKey(apiId, filters, pages.cursor),
    queryFn: () =>
      call(
        api.GET('/api/apis/{api}/customers', {
          params: {
            path: { api: apiId },
            query: {
              limit: filters.limit,
              ...(filters.q ? { q: filters.q } : {}),
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.archived ? { archived: true } : {}),
              ...(pages.cursor ? { cursor: pages.cursor } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(filters.q || filters.status || filters.archived);
  return (
    <>
      <PageHeader title="Customers" description="The people and companies that use this API, their balances and this month's requests." />
      <CustomerFiltersBar key={filters.q} filters={filters} setParams={setParams} />
      <QueryState query={list} loading="Loading customers…">
        {(body) =>
          body.customers?.length ? (
            <>
              <CustomersTable apiId={apiId} customers={body.customers} />
              <Pager pages={pages} nextCursor={body.next_cursor} label="Customer pages" />
            </>
          ) : (
            <div className="card">
              <Empty title={filtered ? 'No customer matches' : 'No customers yet'}>
                <p>{filtered ? 'Try another search or status.' : 'Customers appear here when they sign up on the portal, or when you add or invite them below.'}</p>
              </Empty>
            </div>
          )
        }
      </QueryState>
      {canEdit(role) ? (
        <div className="grid-2 customer-forms">
          <CreateCustomerForm apiId={apiId} />
          <InviteCustomerForm apiId={apiId} />
        </div>
      ) : null}
      {canEdit(role) ? <CustomerInvites apiId={apiId} /> : null}
    </>
  );
}
