// Events to owners: the API's webhook endpoints and each one's deliveries.
import type { RouteObject } from 'react-router';
import { EndpointPage } from './endpoint-page.js';
import { EndpointsPage } from './endpoints-page.js';

export const eventRoutes: RouteObject[] = [
  { path: 'apis/:api/webhooks', element: <EndpointsPage /> },
  { path: 'apis/:api/webhooks/:endpoint', element: <EndpointPage /> },
];
