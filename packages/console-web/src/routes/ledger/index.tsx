// An API's credit ledger.
import type { RouteObject } from 'react-router';
import { LedgerPage } from './ledger-page.js';

export const ledgerRoutes: RouteObject[] = [{ path: '/apis/:api/ledger', element: <LedgerPage /> }];
