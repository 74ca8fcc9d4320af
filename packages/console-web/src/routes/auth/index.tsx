// Pages before a session: sign in (with the two-factor step), sign up, forgot password, and the
// link of a workspace invitation.
import type { RouteObject } from 'react-router';
import { ForgotPasswordPage } from './forgot-password-page.js';
import { InvitePage } from './invite-page.js';
import { LoginPage } from './login-page.js';
import { SignupPage } from './signup-page.js';

export const authRoutes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/signup', element: <SignupPage /> },
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/invites/:token', element: <InvitePage /> },
];
