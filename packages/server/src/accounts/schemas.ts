import { Type } from '@sinclair/typebox';
import { Body, Email, NewPassword, Timestamp, UserOut, WorkspaceOut } from '../console/common-schemas.js';

// Spec 2.4.
/**
 * A person's name, 1..100. The service trims names before storing them, so a name of spaces alone
 * would be stored empty, below the bound: the pattern asks for one visible character.
 */
const PersonName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
export const EmailInBody = Body({ email: Email });
export const CodeInBody = Body({ email: Email, code: Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' }) });
export const TicketBody = Type.Object({ ticket: Type.String({ description: 'works once, for 30 minutes' }), expires_at: Timestamp });
export const SignupInBody = Body({
  ticket: Type.String({ maxLength: 1000 }),
  name: PersonName,
  password: NewPassword,
  workspace: Type.Optional(Type.String({ maxLength: 100, description: "defaults to the person's name" })),
});
export const LoginInBody = Body({ email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 200 }) });
export const LoginBody = Type.Object({
  two_factor_required: Type.Boolean(),
  challenge: Type.Optional(Type.String({ description: 'send with the authenticator code to /auth/login/2fa' })),
  user: Type.Optional(UserOut),
  workspace_id: Type.Optional(Type.String()),
});
export const TwoFactorInBody = Body({ challenge: Type.String({ maxLength: 200 }), code: Type.String({ maxLength: 20 }) });
export const ResetInBody = Body({ ticket: Type.String({ maxLength: 1000 }), password: NewPassword });
export const ResetBody = Type.Object({ signed_in: Type.Boolean(), user: Type.Optional(UserOut) });
export const PasswordInBody = Body({ current_password: Type.String({ maxLength: 200 }), password: NewPassword });
export const ProfileInBody = Body({ name: PersonName });
export const SessionBody = Type.Object({ user: UserOut, workspace_id: Type.Optional(Type.String()) });
export const MeBody = Type.Object({ user: UserOut, workspaces: Type.Union([Type.Array(WorkspaceOut), Type.Null()]) });
export const TotpSetupBody = Type.Object({ secret: Type.String({ description: 'base32, for manual entry' }), uri: Type.String({ description: 'otpauth link for a QR code' }) });
export const TotpCodeInBody = Body({ code: Type.String({ maxLength: 20 }) });
export const TotpDisableInBody = Body({ password: Type.String({ maxLength: 200 }), code: Type.String({ maxLength: 20 }) });
export const RecoveryBody = Type.Object({
  recovery_codes: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'shown once; each code signs in one time' }),
});
