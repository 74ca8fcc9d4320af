import type { RouteObject } from 'react-router';
import { DomainPage } from './domain-page.js';

export const domainRoutes: RouteObject[] = [{ path: 'apis/:api/domain', element: <DomainPage /> }];
