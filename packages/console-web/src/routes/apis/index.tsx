// APIs: the workspace's list, create, an API's Connect page and settings, the payments return pages.
import type { RouteObject } from 'react-router';

export const apiRoutes: RouteObject[] = [];
