import { Type, type TSchema } from '@sinclair/typebox';

// Spec 2.6: the console's error body (problem+json).
export const ErrorDetail = Type.Object(
  { location: Type.Optional(Type.String()), message: Type.Optional(Type.String()), value: Type.Optional(Type.Unknown()) },
  { $id: 'ErrorDetail' },
);
export const ErrorModel = Type.Object(
  {
    type: Type.Optional(Type.String({ format: 'uri', default: 'about:blank' })),
    title: Type.Optional(Type.String()),
    status: Type.Optional(Type.Integer()),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Union([Type.Array(ErrorDetail), Type.Null()])),
  },
  { $id: 'ErrorModel' },
);

export const OkBody = Type.Object({ ok: Type.Boolean() }, { additionalProperties: false });
export const SentBody = Type.Object({ sent: Type.Boolean() }, { additionalProperties: false });

export const Timestamp = Type.String({ format: 'date-time' });

export const UserOut = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  two_factor: Type.Boolean({ description: 'authenticator two-factor sign-in is on' }),
  created_at: Timestamp,
});

export const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]);
export const InvitableRoleName = Type.Union([Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]);

export const WorkspaceOut = Type.Object({ id: Type.String(), name: Type.String(), role: RoleName, created_at: Timestamp });

/** A request body: undeclared properties are refused (spec conventions). */
export function Body<T extends Parameters<typeof Type.Object>[0]>(properties: T, description?: string) {
  return Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
}

/** Problem answers every console route may give, merged into each route's response map. */
export function withProblems<R extends Record<number, TSchema>>(responses: R, ...statuses: number[]) {
  const problems: Record<number, TSchema> = {};
  for (const status of [401, 403, 404, 422, 429, ...statuses]) problems[status] = Type.Ref(ErrorModel);
  return { ...problems, ...responses };
}

/** Page size of every listing: the schema's default, restated for the type checker. */
export const DEFAULT_PAGE_SIZE = 50;

export const Email = Type.String({ maxLength: 254, format: 'email' });
export const NewPassword = Type.String({ minLength: 10, maxLength: 72 });
