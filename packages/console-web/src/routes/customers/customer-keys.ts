// Query keys of an API's customers (app/query-keys.ts): the list under its filters and cursor, and
// one customer. A change of a customer invalidates both prefixes, so the list and the page agree.
import { key } from '../../app/query-keys.js';

export interface CustomerFilters {
  q: string;
  status: '' | 'active' | 'pending' | 'suspended';
  archived: boolean;
  limit: number;
}

/** Every list of the API's customers (a prefix of each page's key). */
export const customersKey = (apiId: string) => key('/api/apis/{api}/customers', apiId);
export const customersPageKey = (apiId: string, filters: CustomerFilters, cursor: string | undefined) => key('/api/apis/{api}/customers', apiId, filters, cursor ?? null);
export const customerKey = (apiId: string, customerId: string) => key('/api/apis/{api}/customers/{id}', apiId, customerId);
