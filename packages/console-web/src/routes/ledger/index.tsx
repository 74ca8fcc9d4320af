// An API's credit ledger.
import type { RouteObject } from 'react-router';

export const ledgerRoutes: RouteObject[] = [];
