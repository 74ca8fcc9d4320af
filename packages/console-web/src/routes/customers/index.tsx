// An API's customers: the list and each customer's page.
import type { RouteObject } from 'react-router';
import { CustomerPage } from './customer-page.js';
import { CustomersPage } from './customers-page.js';

export const customerRoutes: RouteObject[] = [
  { path: '/apis/:api/customers', element: <CustomersPage /> },
  { path: '/apis/:api/customers/:id', element: <CustomerPage /> },
];
