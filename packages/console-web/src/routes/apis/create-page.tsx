// Register an API (editors): name, preset, portal address checked as it is typed, where the API
// runs. The answer's SDK secret goes to the Connect page through the query cache (never the
// address or browser storage), where it is shown at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client.js';
import type { CreateAPIInBody } from '../../api/records.js';
import { canEdit } from '../../app/roles.js';
import { apiKey } from '../../app/use-api.js';
import { useWorkspace } from '../../app/workspace.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { Empty } from '../../components/states.js';
import { secretKey } from './connect/secret-card.js';
import { workspaceApisKey } from './list-page.js';
import { PRESETS, type PresetName } from './presets.js';
import { SlugField } from './slug-field.js';

export function CreateApiPage() {
  const { ws = '' } = useParams();
  const workspace = useWorkspace(ws);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [preset, setPreset] = useState<PresetName>('payg');
  const [slug, setSlug] = useState('');
  const create = useMutation({
    mutationFn: (body: CreateAPIInBody) => call(api.POST('/api/workspaces/{ws}/apis', { params: { path: { ws } }, body })),
    onSuccess: (created) => {
      queryClient.setQueryData(apiKey(created.api.id), created.api);
      queryClient.setQueryData(secretKey(created.api.id), { secret: created.secret });
      void queryClient.invalidateQueries({ queryKey: workspaceApisKey(ws) });
      void navigate(`/apis/${created.api.id}/connect`, { state: { created: true } });
    },
  });
  if (!workspace || workspace.id !== ws) return <Empty title="Not found"><p>This workspace is not one of yours.</p></Empty>;
  if (!canEdit(workspace.role)) {
    return (
      <>
        <PageHeader title="Create API" />
        <p>Only editors, admins and owners of {workspace.name} register APIs.</p>
      </>
    );
  }
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const baseUrl = String(form.get('api_base_url') ?? '').trim();
    create.mutate({
      name: String(form.get('name') ?? '').trim(),
      preset,
      ...(slug.trim() ? { slug: slug.trim() } : {}),
      ...(baseUrl ? { api_base_url: baseUrl } : {}),
    });
  };
  return (
    <>
      <PageHeader title="Create API" description={`A new API in ${workspace.name}. Every setting can be changed later.`} />
      <FormError error={create.error} fields={['name', 'preset', 'slug', 'api_base_url']} />
      <form className="stack card" onSubmit={submit} noValidate>
        <Field label="Name" name="name" maxLength={80} required autoFocus autoComplete="off" hint="Shown to your customers on the portal." error={errors.name} />
        <fieldset className="presets" aria-describedby={errors.preset ? 'preset-error' : undefined}>
          <legend>Preset</legend>
          {PRESETS.map((option) => (
            <label key={option.name} className="check preset">
              <input type="radio" name="preset" value={option.name} checked={preset === option.name} onChange={() => setPreset(option.name)} />
              <span>
                <strong>{option.title}</strong>
                <span className="muted small">{option.description}</span>
              </span>
            </label>
          ))}
          {errors.preset ? <p className="field-error" id="preset-error">{errors.preset}</p> : null}
        </fieldset>
        <SlugField value={slug} onChange={setSlug} error={errors.slug} />
        <Field
          label="Where your API runs (optional)"
          name="api_base_url"
          type="url"
          maxLength={300}
          placeholder="https://api.example.com"
          hint="Its base URL, shown in the portal's quickstart and in the test key's curl line."
          error={errors.api_base_url}
        />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create API'}
          </button>
          <Link to={`/workspaces/${ws}/apis`}>Cancel</Link>
        </div>
      </form>
    </>
  );
}
