// The signed-in person's own pages: profile, password, two-factor.
import type { RouteObject } from 'react-router';
import { AccountPage } from './account-page.js';

export const accountRoutes: RouteObject[] = [{ path: '/account', element: <AccountPage /> }];
