// An API's dashboard: its statistics as figures and charts.
import type { RouteObject } from 'react-router';

export const dashboardRoutes: RouteObject[] = [];
