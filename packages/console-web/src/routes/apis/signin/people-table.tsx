// The rows of the people page: each person's name, address, status and roles, with suspending
// (confirmed, since it ends their sessions and their tokens answer inactive at once), reactivating,
// the roles dialog for editors, and their live sessions (read when the dialog opens), each of which
// an editor can end.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../../api/client.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { Loading } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { EditDialog } from './edit-dialog.js';
import { peopleKey, rolesKey } from './keys.js';
import type { PersonOut } from './types.js';

function useSetStatus(apiId: string, person: PersonOut) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: PersonOut['status']) => call(api.PATCH('/api/apis/{api}/signin/people/{id}', { params: { path: { api: apiId, id: person.id } }, body: { status } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: peopleKey(apiId) }),
  });
}

function StatusAction({ apiId, person }: { apiId: string; person: PersonOut }) {
  const setStatus = useSetStatus(apiId, person);
  if (person.status === 'suspended') {
    return (
      <>
        <button type="button" className="secondary" disabled={setStatus.isPending} onClick={() => setStatus.mutate('active')}>
          Reactivate<span className="visually-hidden"> {person.email}</span>
        </button>
        <FormError error={setStatus.error} />
      </>
    );
  }
  return (
    <ConfirmButton label={<>Suspend<span className="visually-hidden"> {person.email}</span></>} title={`Suspend ${person.name || person.email}`} confirmLabel="Suspend" onOpen={() => setStatus.reset()} onConfirm={() => setStatus.mutateAsync('suspended')}>
      <p>
        {person.email} is signed out everywhere at once: every session ends, and their tokens and keys answer inactive. They cannot sign in until you reactivate them; reactivating does not bring the sessions back.
      </p>
      <FormError error={setStatus.error} />
    </ConfirmButton>
  );
}

function RolesForm({ apiId, person, labelledBy, done }: { apiId: string; person: PersonOut; labelledBy: string; done: () => void }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState(() => person.roles.map((r) => r.id));
  const roles = useQuery({
    queryKey: rolesKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/roles', { params: { path: { api: apiId } } })),
  });
  const save = useMutation({
    mutationFn: () => call(api.PUT('/api/apis/{api}/signin/people/{id}/roles', { params: { path: { api: apiId, id: person.id } }, body: { role_ids: chosen } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: peopleKey(apiId) });
      // Roles count their holders.
      void queryClient.invalidateQueries({ queryKey: rolesKey(apiId) });
      done();
    },
  });
  return (
    <form
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <fieldset>
        <legend>Roles {person.email} holds</legend>
        {roles.isPending ? <Loading label="Loading the roles…" /> : null}
        {roles.error ? <FormError error={roles.error} /> : null}
        {roles.data && roles.data.roles.length === 0 ? <p className="muted">This API has no roles yet: add them on the Roles page.</p> : null}
        {roles.data?.roles.map((role) => (
          <label key={role.id} className="check">
            <input type="checkbox" checked={chosen.includes(role.id)} onChange={(e) => setChosen(e.target.checked ? [...chosen, role.id] : chosen.filter((id) => id !== role.id))} />
            <span>
              {role.name}
              {role.description ? <span className="muted"> {role.description}</span> : null}
            </span>
          </label>
        ))}
      </fieldset>
      <FormError error={save.error} />
      <div className="actions">
        <button type="button" className="secondary" onClick={done}>
          Cancel
        </button>
        <button type="submit" disabled={save.isPending || !roles.data}>
          {save.isPending ? 'Saving…' : 'Save roles'}
        </button>
      </div>
    </form>
  );
}

function SessionsList({ apiId, person, editor, done }: { apiId: string; person: PersonOut; editor: boolean; done: () => void }) {
  const queryClient = useQueryClient();
  const sessionsKey = [...peopleKey(apiId), person.id, 'sessions'];
  const sessions = useQuery({
    queryKey: sessionsKey,
    queryFn: () => call(api.GET('/api/apis/{api}/signin/people/{id}/sessions', { params: { path: { api: apiId, id: person.id } } })),
  });
  const end = useMutation({
    mutationFn: (session: string) => call(api.DELETE('/api/apis/{api}/signin/people/{id}/sessions/{session}', { params: { path: { api: apiId, id: person.id, session } } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
  const list = sessions.data?.sessions;
  return (
    <>
      <p>Each session is a browser signed in on the sign-in pages. Ending one signs that browser out, and the access tokens issued in it answer inactive at once.</p>
      {sessions.isPending ? <Loading label="Loading the sessions…" /> : null}
      {sessions.error ? <FormError error={sessions.error} /> : null}
      {list && list.length === 0 ? <p className="muted" data-testid="no-sessions">No live session: {person.email} is signed in nowhere.</p> : null}
      {list && list.length > 0 ? (
        <table>
          <caption className="visually-hidden">Live sessions</caption>
          <thead>
            <tr>
              <th scope="col">Signed in</th>
              <th scope="col">How</th>
              <th scope="col">Ends</th>
              {editor ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.map((session, index) => (
              <tr key={session.id} data-testid={`session-${session.id}`}>
                <td className="nowrap">{formatTime(session.auth_time)}</td>
                <td>{session.amr.map((m) => (m === 'pwd' ? 'password' : m === 'otp' ? 'e-mailed code' : m)).join(', ')}</td>
                <td className="nowrap">{formatTime(session.expires_at)}</td>
                {editor ? (
                  <td>
                    <button type="button" className="danger" disabled={end.isPending} onClick={() => end.mutate(session.id)}>
                      End<span className="visually-hidden"> session {index + 1}</span>
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <FormError error={end.error} />
      <div className="actions">
        <button type="button" className="secondary" onClick={done}>
          Close
        </button>
      </div>
    </>
  );
}

export function PeopleTable({ apiId, people, editor }: { apiId: string; people: PersonOut[]; editor: boolean }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">People</caption>
        <thead>
          <tr>
            <th scope="col">Name and e-mail</th>
            <th scope="col">Status</th>
            <th scope="col">Roles</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Joined</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person.id} data-testid={`person-${person.id}`}>
              <td>
                {person.name}
                <div className="small muted">
                  {person.email}
                  {person.email_verified ? null : ' (not verified)'}
                </div>
              </td>
              <td>
                <StatusBadge status={person.status} />
              </td>
              <td className="small">{person.roles.length ? person.roles.map((r) => r.name).join(', ') : <span className="muted">none</span>}</td>
              <td className="nowrap">{person.last_login_at ? formatTime(person.last_login_at) : <span className="muted">never</span>}</td>
              <td className="nowrap">{formatTime(person.created_at)}</td>
              <td>
                <div className="actions">
                  <EditDialog label={<>Sessions<span className="visually-hidden"> of {person.email}</span></>} title={`Sessions of ${person.name || person.email}`}>
                    {(done) => <SessionsList apiId={apiId} person={person} editor={editor} done={done} />}
                  </EditDialog>
                  {editor ? (
                    <>
                      <EditDialog label={<>Roles<span className="visually-hidden"> of {person.email}</span></>} title={`Roles of ${person.name || person.email}`}>
                        {(done, titleId) => <RolesForm apiId={apiId} person={person} labelledBy={titleId} done={done} />}
                      </EditDialog>
                      <StatusAction apiId={apiId} person={person} />
                    </>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
