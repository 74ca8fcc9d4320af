// The query keys of the sign-in service's reads, shared by its pages and forms.
import { key } from '../../../app/query-keys.js';

export const signinSettingsKey = (apiId: string) => key('/api/apis/{api}/signin', apiId);
export const appsKey = (apiId: string) => key('/api/apis/{api}/signin/apps', apiId);
export const serversKey = (apiId: string) => key('/api/apis/{api}/signin/servers', apiId);
export const rolesKey = (apiId: string) => key('/api/apis/{api}/signin/roles', apiId);
