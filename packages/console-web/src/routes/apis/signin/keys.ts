// The query keys of the sign-in service's reads, shared by its pages and forms.
import { key } from '../../../app/query-keys.js';

export const signinSettingsKey = (apiId: string) => key('/api/apis/{api}/signin', apiId);
export const appsKey = (apiId: string) => key('/api/apis/{api}/signin/apps', apiId);
export const serversKey = (apiId: string) => key('/api/apis/{api}/signin/servers', apiId);
export const rolesKey = (apiId: string) => key('/api/apis/{api}/signin/roles', apiId);
export const peopleKey = (apiId: string) => key('/api/apis/{api}/signin/people', apiId);
export const connectedKey = (apiId: string) => key('/api/apis/{api}/signin/connected-apps', apiId);
export const keySettingsKey = (apiId: string) => key('/api/apis/{api}/signin/key-settings', apiId);
export const signingKeysKey = (apiId: string) => key('/api/apis/{api}/signin/signing-keys', apiId);
