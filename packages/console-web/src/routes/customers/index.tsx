// An API's customers: the list and each customer's page.
import type { RouteObject } from 'react-router';

export const customerRoutes: RouteObject[] = [];
