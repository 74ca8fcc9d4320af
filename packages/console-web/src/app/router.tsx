// Every page of the console by address. Pages before a session stand alone; every other page is
// inside the frame, reached only with a session. Each page group keeps its own routes
// (routes/<group>/index.tsx), mirroring the console API's capabilities.
import { createBrowserRouter } from 'react-router';
import { accountRoutes } from '../routes/account/index.js';
import { apiRoutes } from '../routes/apis/index.js';
import { authRoutes } from '../routes/auth/index.js';
import { customerRoutes } from '../routes/customers/index.js';
import { dashboardRoutes } from '../routes/dashboard/index.js';
import { domainRoutes } from '../routes/domain/index.js';
import { eventRoutes } from '../routes/events/index.js';
import { HomePage } from '../routes/home.js';
import { ledgerRoutes } from '../routes/ledger/index.js';
import { NotFoundPage } from '../routes/not-found.js';
import { planRoutes } from '../routes/plans/index.js';
import { workspaceRoutes } from '../routes/workspaces/index.js';
import { Frame } from './frame.js';
import { RequireSession } from './session.js';

export const router = createBrowserRouter([
  ...authRoutes,
  {
    element: (
      <RequireSession>
        <Frame />
      </RequireSession>
    ),
    children: [
      { index: true, element: <HomePage /> },
      ...accountRoutes,
      ...workspaceRoutes,
      ...apiRoutes,
      ...dashboardRoutes,
      ...customerRoutes,
      ...ledgerRoutes,
      ...eventRoutes,
      ...domainRoutes,
      ...planRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
