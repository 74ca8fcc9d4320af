// The roles of an API's sign-in service (/apis/:api/signin/roles): each gives permissions of the
// servers to the people holding it. Listed with their permissions and holders, added (editor) and
// changed in a dialog and deleted (editor, confirmed: holders lose it). Opens on the API's record
// and the roles.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/client.js';
import type { ApiOut, SigninRoleOut } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { Empty, QueryState } from '../../../components/states.js';
import { EditDialog } from './edit-dialog.js';
import { rolesKey } from './keys.js';
import { NewRoleCard, RoleForm } from './role-form.js';
import { SigninNav } from './signin-nav.js';

function DeleteRole({ apiId, role }: { apiId: string; role: SigninRoleOut }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/signin/roles/{id}', { params: { path: { api: apiId, id: role.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rolesKey(apiId) }),
  });
  return (
    <ConfirmButton label={<>Delete<span className="visually-hidden"> {role.name}</span></>} title={`Delete ${role.name}`} confirmLabel="Delete role" onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
      <p>
        {role.people === 1 ? 'The one person' : `The ${role.people} people`} holding {role.name} lose it and the permissions it gave. This cannot be undone.
      </p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

function RolesTable({ apiOut, roles }: { apiOut: ApiOut; roles: SigninRoleOut[] }) {
  const editor = canEdit(apiOut.role);
  if (roles.length === 0) return <Empty title="No roles yet">{editor ? <p>Add a role below to give people permissions.</p> : null}</Empty>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Roles</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Permissions</th>
            <th scope="col">People</th>
            {editor ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {roles.map((role) => (
            <tr key={role.id}>
              <td>
                {role.name}
                {role.description ? <div className="small muted">{role.description}</div> : null}
              </td>
              <td className="small">{role.permissions.length === 0 ? <span className="muted">none</span> : role.permissions.map((p) => <div key={`${p.server_id} ${p.permission}`}><code>{p.permission}</code></div>)}</td>
              <td>{role.people}</td>
              {editor ? (
                <td>
                  <div className="actions">
                    <EditDialog label={<>Edit<span className="visually-hidden"> {role.name}</span></>} title={`Edit ${role.name}`}>
                      {(done, titleId) => <RoleForm apiId={apiOut.id} role={role} labelledBy={titleId} onSaved={done} onCancel={done} />}
                    </EditDialog>
                    <DeleteRole apiId={apiOut.id} role={role} />
                  </div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SigninRolesPage() {
  const apiId = useApiId();
  const roles = useQuery({
    queryKey: rolesKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/roles', { params: { path: { api: apiId } } })),
    select: (answer) => answer.roles,
  });
  const both = useApiAndList(apiId, roles);
  return (
    <QueryState query={both} loading="Loading the roles…">
      {({ apiOut, list }) => (
        <>
          <PageHeader
            title={`Roles of ${apiOut.name}`}
            description={<>Roles give the people holding them permissions of your servers; your own apps may read them through the roles scope.</>}
          />
          <SigninNav apiId={apiOut.id} />
          <RolesTable apiOut={apiOut} roles={list} />
          {canEdit(apiOut.role) ? <NewRoleCard apiId={apiOut.id} /> : null}
        </>
      )}
    </QueryState>
  );
}
