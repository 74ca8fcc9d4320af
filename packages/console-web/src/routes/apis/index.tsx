// APIs: the workspace's list, create, an API's Connect page and settings, the payments return pages, and
// the sign-in service's pages.
import type { RouteObject } from 'react-router';
import { ConnectPage } from './connect/connect-page.js';
import { CreateApiPage } from './create-page.js';
import { ApiListPage } from './list-page.js';
import { PaymentsReturnPage } from './payments/payments-page.js';
import { PlanReturnPage } from './payments/plan-page.js';
import { SettingsPage } from './settings/settings-page.js';
import { SigninAppsPage } from './signin/apps-page.js';
import { SigninConnectedAppsPage } from './signin/connected-apps-page.js';
import { SigninKeySettingsPage } from './signin/key-settings-page.js';
import { SigninPeoplePage } from './signin/people-page.js';
import { SigninPreviewPage } from './signin/preview-page.js';
import { SigninSigningKeysPage } from './signin/signing-keys-page.js';
import { SigninRolesPage } from './signin/roles-page.js';
import { SigninServersPage } from './signin/servers-page.js';
import { SigninSettingsPage } from './signin/settings-page.js';

export const apiRoutes: RouteObject[] = [
  { path: 'workspaces/:ws/apis', element: <ApiListPage /> },
  { path: 'workspaces/:ws/apis/new', element: <CreateApiPage /> },
  { path: 'apis/:api/connect', element: <ConnectPage /> },
  { path: 'apis/:api/settings', element: <SettingsPage /> },
  { path: 'apis/:api/payments', element: <PaymentsReturnPage /> },
  { path: 'apis/:api/plan', element: <PlanReturnPage /> },
  { path: 'apis/:api/signin', element: <SigninSettingsPage /> },
  { path: 'apis/:api/signin/apps', element: <SigninAppsPage /> },
  { path: 'apis/:api/signin/servers', element: <SigninServersPage /> },
  { path: 'apis/:api/signin/roles', element: <SigninRolesPage /> },
  { path: 'apis/:api/signin/people', element: <SigninPeoplePage /> },
  { path: 'apis/:api/signin/connected-apps', element: <SigninConnectedAppsPage /> },
  { path: 'apis/:api/signin/keys', element: <SigninKeySettingsPage /> },
  { path: 'apis/:api/signin/signing-keys', element: <SigninSigningKeysPage /> },
  { path: 'apis/:api/signin/preview', element: <SigninPreviewPage /> },
];
