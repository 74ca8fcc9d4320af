// Names for the sign-in service's records beyond the first slice's (api/records.ts), taken from the
// generated types, kept here so the page group's names live with it.
import type { RequestOf, ResponseOf } from '../../../api/records.js';

export type PeopleBody = ResponseOf<'/api/apis/{api}/signin/people', 'get'>;
export type PersonOut = PeopleBody['people'][number];
export type ConnectedAppsBody = ResponseOf<'/api/apis/{api}/signin/connected-apps', 'get'>;
export type ConnectedAppOut = ConnectedAppsBody['apps'][number];
export type KeySettingsOut = ResponseOf<'/api/apis/{api}/signin/key-settings', 'get'>;
export type KeySettingsIn = RequestOf<'/api/apis/{api}/signin/key-settings', 'patch'>;
export type SigningKeyOut = ResponseOf<'/api/apis/{api}/signin/signing-keys', 'get'>['keys'][number];
export type AppChangesIn = RequestOf<'/api/apis/{api}/signin/apps/{id}', 'patch'>;
export type ServerChangesIn = RequestOf<'/api/apis/{api}/signin/servers/{id}', 'patch'>;
export type RoleChangesIn = RequestOf<'/api/apis/{api}/signin/roles/{id}', 'patch'>;
