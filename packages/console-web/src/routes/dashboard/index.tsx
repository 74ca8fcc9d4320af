// An API's dashboard: its statistics as figures and charts.
import type { RouteObject } from 'react-router';
import { DashboardPage } from './dashboard-page.js';

export const dashboardRoutes: RouteObject[] = [{ path: '/apis/:api', element: <DashboardPage /> }];
