import type { RouteObject } from 'react-router';
import { PlansPage } from './plans-page.js';

export const planRoutes: RouteObject[] = [{ path: 'apis/:api/plans', element: <PlansPage /> }];
