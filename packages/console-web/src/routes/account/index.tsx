// The signed-in person's own pages: profile, password, two-factor.
import type { RouteObject } from 'react-router';

export const accountRoutes: RouteObject[] = [];
