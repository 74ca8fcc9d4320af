import { Type } from '@sinclair/typebox';
import { Body, Email, InvitableRoleName, RoleName, Timestamp, UserOut } from '../console/common-schemas.js';

// Spec 2.4. Names are stored trimmed, so a name must hold a non-space character: without the
// pattern, "   " passed minLength 1 and was stored as an empty name, below the 1-character bound.
const NotBlank = '\\S';
export const NameInBody = Body({ name: Type.String({ minLength: 1, maxLength: 100, pattern: NotBlank }) });
export const WorkspaceParams = Type.Object({ ws: Type.String({ maxLength: 64 }) });
export const InviteInBody = Body({ email: Email, role: InvitableRoleName });
export const InviteOut = Type.Object({ id: Type.String(), email: Type.String(), role: Type.String(), created_at: Timestamp, expires_at: Timestamp });
export const MemberOut = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: RoleName,
  two_factor: Type.Boolean(),
  joined_at: Timestamp,
});
export const MembersBody = Type.Object({
  members: Type.Union([Type.Array(MemberOut), Type.Null()]),
  invites: Type.Union([Type.Array(InviteOut), Type.Null()]),
});
export const RoleInBody = Body({ role: RoleName });
export const KeyInBody = Body({ name: Type.String({ minLength: 1, maxLength: 80, pattern: NotBlank }), role: Type.Optional(InvitableRoleName) });
export const KeyOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'the visible start of the key' }),
  role: Type.String(),
  created_at: Timestamp,
  last_used_at: Type.Optional(Timestamp),
});
export const KeysBody = Type.Object({ keys: Type.Array(KeyOut) });
export const NewKeyBody = Type.Intersect([KeyOut, Type.Object({ key: Type.String({ description: 'shown once' }) })]);
export const InviteInfo = Type.Object({
  workspace: Type.String(),
  email: Type.String(),
  role: Type.String(),
  account_exists: Type.Boolean(),
  expires_at: Timestamp,
  /** Who sent it, as the invitation mail named them (a person's or a workspace key's name). */
  invited_by: Type.Optional(Type.String()),
});
export const AcceptInviteInBody = Body({
  name: Type.Optional(Type.String({ maxLength: 100 })),
  password: Type.Optional(Type.String({ maxLength: 72 })),
});
export const AcceptedBody = Type.Object({ user: UserOut, workspace_id: Type.Optional(Type.String()) });
export const InviteParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
