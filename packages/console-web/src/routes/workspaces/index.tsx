// A workspace's pages: create, settings (rename, delete), members and invitations, keys, audit log.
import type { RouteObject } from 'react-router';

export const workspaceRoutes: RouteObject[] = [];
