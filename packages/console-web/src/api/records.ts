// Names for the records of the console API, taken from the generated types, so a page says
// `ApiOut` where the spec does and follows any change of the API's schemas.
import type { paths } from './schema.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of a path's operation at a status. */
export type ResponseOf<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? Json<R[S]>
    : never
  : never;
/** The JSON request body of a path's operation. */
export type RequestOf<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

export type MeBody = ResponseOf<'/api/me', 'get'>;
export type UserOut = MeBody['user'];
export type WorkspaceOut = NonNullable<MeBody['workspaces']>[number];
export type ApiOut = ResponseOf<'/api/apis/{api}', 'get'>;
export type ApiSummary = NonNullable<ResponseOf<'/api/workspaces/{ws}/apis', 'get'>['apis']>[number];
export type UpdateAPIInBody = RequestOf<'/api/apis/{api}', 'patch'>;
export type CustomersBody = ResponseOf<'/api/apis/{api}/customers', 'get'>;
export type CustomerSummary = NonNullable<CustomersBody['customers']>[number];
export type CustomerDetail = ResponseOf<'/api/apis/{api}/customers/{id}', 'get'>;
export type LedgerBody = ResponseOf<'/api/apis/{api}/ledger', 'get'>;
export type LedgerEntry = NonNullable<LedgerBody['entries']>[number];
export type StatsBody = ResponseOf<'/api/apis/{api}/stats', 'get'>;
export type AuditBody = ResponseOf<'/api/workspaces/{ws}/audit', 'get'>;
export type AuditOut = NonNullable<AuditBody['events']>[number];
export type MembersBody = ResponseOf<'/api/workspaces/{ws}/members', 'get'>;
export type ConnectionBody = ResponseOf<'/api/apis/{api}/connection', 'get'>;
export type MemberOut = NonNullable<MembersBody['members']>[number];
export type InviteOut = NonNullable<MembersBody['invites']>[number];
export type KeyOut = ResponseOf<'/api/workspaces/{ws}/keys', 'get'>['keys'][number];
export type NewKeyBody = ResponseOf<'/api/workspaces/{ws}/keys', 'post'>;
export type AuditQuery = NonNullable<NonNullable<paths['/api/workspaces/{ws}/audit']['get']['parameters']['query']>>;
export type InviteInfo = ResponseOf<'/api/invites/{token}', 'get'>;
export type AcceptedBody = ResponseOf<'/api/invites/{token}/accept', 'post'>;
export type TotpSetupBody = ResponseOf<'/api/me/2fa/setup', 'post'>;
export type CustomerStatus = CustomerSummary['status'];
export type CustomerKey = NonNullable<CustomerDetail['keys']>[number];
export type NewCustomerKey = ResponseOf<'/api/apis/{api}/customers/{id}/keys', 'post'>;
export type LimitsBody = RequestOf<'/api/apis/{api}/customers/{id}/limits', 'put'>;
export type CreditBody = ResponseOf<'/api/apis/{api}/customers/{id}/credit', 'post'>;
export type PlanOut = NonNullable<ResponseOf<'/api/apis/{api}/plans', 'get'>['plans']>[number];
export type LedgerKind = NonNullable<NonNullable<paths['/api/apis/{api}/ledger']['get']['parameters']['query']>['kind']>;
export type CreateAPIInBody = RequestOf<'/api/workspaces/{ws}/apis', 'post'>;
export type CreatedAPIBody = ResponseOf<'/api/workspaces/{ws}/apis', 'post'>;
export type SlugBody = ResponseOf<'/api/slugs/{slug}', 'get'>;
export type SecretBody = ResponseOf<'/api/apis/{api}/secret', 'get'>;
export type TestKeyBody = ResponseOf<'/api/apis/{api}/test-key', 'post'>;
export type PaymentsOut = ApiOut['payments'];
export type SigninSettingsOut = ResponseOf<'/api/apis/{api}/signin', 'get'>;
export type SigninSettingsIn = RequestOf<'/api/apis/{api}/signin', 'patch'>;
export type SigninAppOut = ResponseOf<'/api/apis/{api}/signin/apps', 'get'>['apps'][number];
export type NewSigninAppIn = RequestOf<'/api/apis/{api}/signin/apps', 'post'>;
export type SigninServerOut = ResponseOf<'/api/apis/{api}/signin/servers', 'get'>['servers'][number];
export type SigninRoleOut = ResponseOf<'/api/apis/{api}/signin/roles', 'get'>['roles'][number];
export type NewSigninRoleIn = RequestOf<'/api/apis/{api}/signin/roles', 'post'>;
