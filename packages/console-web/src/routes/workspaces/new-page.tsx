// /workspaces/new: a workspace of one's own, named; the person lands in it as its owner.
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import { rememberWorkspace } from '../../app/workspace.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { useRefreshSession } from './queries.js';

export function NewWorkspacePage() {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const create = useMutation({
    mutationFn: (name: string) => call(api.POST('/api/workspaces', { body: { name } })),
    onSuccess: async (workspace) => {
      rememberWorkspace(workspace.id);
      await refreshSession();
      await navigate(`/workspaces/${workspace.id}/apis`);
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(String(new FormData(event.currentTarget).get('name') ?? '').trim());
  };
  return (
    <>
      <PageHeader title="New workspace" description="A workspace holds APIs, the people who run them and its own audit log. You will be its owner." />
      <div className="card">
        <FormError error={create.error} fields={['name']} />
        <form className="stack" onSubmit={submit}>
          <Field label="Workspace name" name="name" maxLength={100} required autoComplete="organization" hint="Your company or team; you can rename it later." error={errors.name} />
          <button type="submit" disabled={create.isPending}>
            Create workspace
          </button>
        </form>
      </div>
    </>
  );
}
