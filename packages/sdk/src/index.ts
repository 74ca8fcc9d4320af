export { createMeter, Meter, type AdmitInput } from './meter.js';
export type { MeterOptions } from './options.js';
export type { Admission, Admitted, Denied, Decision, DenialReason, MeteredCustomer } from './decision.js';
export type { MeterMetrics } from './metrics.js';
export { AuthorizationError, TerminalReportError, TransientError } from './control-client.js';
export {
  protectResource,
  ProtectedResource,
  type ProtectedResourceOptions,
  type ProtectedResourceMetadata,
  type CredentialInput,
  type GuardedAdmission,
} from './signin/protected-resource.js';
export type { VerifiedToken } from './signin/access-token.js';
export {
  createVerifier,
  Verifier,
  type VerifierOptions,
  type Principal,
  type CheckInput,
  type Verified,
  type Refused,
  type VerifierResult,
  type VerifierMetrics,
} from './verify/verifier.js';
export {
  accountKeys,
  reauthenticationUrl,
  newPkce,
  AccountKeysError,
  ReauthenticationRequired,
  type AccountKeys,
  type AccountKeysOptions,
  type NewKey,
  type ReauthenticationOptions,
} from './verify/account-keys.js';
