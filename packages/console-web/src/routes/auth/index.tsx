// Pages before a session: sign in (with the two-factor step), sign up, forgot password, and the
// link of a workspace invitation.
import type { RouteObject } from 'react-router';
import { LoginPage } from './login-page.js';

export const authRoutes: RouteObject[] = [{ path: '/login', element: <LoginPage /> }];
