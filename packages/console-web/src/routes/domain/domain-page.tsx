// The custom domain of an API (/apis/:api/domain): setting a name of the owner's own, the CNAME and
// TXT records to add with copy buttons, checking them now, the state with the last check's error,
// and removing it. Viewers read; admins change (DESIGN 6). The page asks again every 5 seconds
// while the domain waits (pending, verified), so the job's checks show without a reload.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client.js';
import type { ApiOut } from '../../api/records.js';
import { canAdmin } from '../../app/roles.js';
import { apiKey, useApiAndList, useApiId } from '../../app/use-api.js';
import { ConfirmButton } from '../../components/confirm.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { QueryState } from '../../components/states.js';
import { DomainRecords } from './domain-records.js';
import { DomainState } from './domain-state.js';
import { domainKey, type DomainOut } from './types.js';

function useDomainChange<V>(apiId: string, fn: (variables: V) => Promise<DomainOut>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (domain) => {
      queryClient.setQueryData(domainKey(apiId), domain);
      void queryClient.invalidateQueries({ queryKey: apiKey(apiId) });
    },
  });
}

function SetDomain({ apiId, current }: { apiId: string; current: DomainOut }) {
  const [name, setName] = useState(current.domain ?? '');
  const set = useDomainChange(apiId, (domain: string) => call(api.PUT('/api/apis/{api}/domain', { params: { path: { api: apiId } }, body: { domain } })));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(name.trim());
  };
  const errors = fieldErrors(set.error);
  return (
    <section className="card" aria-labelledby="set-domain-heading">
      <h2 id="set-domain-heading">{current.domain ? 'Change the domain' : 'Set a domain'}</h2>
      <form onSubmit={submit} onChange={() => set.isError && set.reset()} noValidate aria-labelledby="set-domain-heading" className="row">
        <Field label="Domain" name="domain" maxLength={253} spellCheck={false} autoComplete="off" placeholder="login.example.com" value={name} onChange={(e) => setName(e.target.value)} hint="A host name of your own, such as login.example.com." error={errors.domain} />
        <button type="submit" disabled={set.isPending}>
          {set.isPending ? 'Saving…' : current.domain ? 'Change domain' : 'Set domain'}
        </button>
      </form>
      <FormError error={set.error} fields={['domain']} />
    </section>
  );
}

function DomainActions({ apiId, domain }: { apiId: string; domain: DomainOut }) {
  const check = useDomainChange(apiId, () => call(api.POST('/api/apis/{api}/domain/check', { params: { path: { api: apiId } } })));
  const remove = useDomainChange(apiId, () => call(api.DELETE('/api/apis/{api}/domain', { params: { path: { api: apiId } } })));
  return (
    <>
      <div className="actions">
        {domain.allowed ? (
          <button type="button" onClick={() => check.mutate(undefined)} disabled={check.isPending}>
            {check.isPending ? 'Checking…' : 'Check now'}
          </button>
        ) : null}
        <ConfirmButton label="Remove domain" title={`Remove ${domain.domain}`} onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync(undefined)}>
          <p>{domain.domain} is served no more from now on; sign-ins and the portal stay at the API’s own address. Its DNS records can be deleted after.</p>
          <FormError error={remove.error} />
        </ConfirmButton>
      </div>
      <FormError error={check.error} />
    </>
  );
}

function PlanGate({ apiOut }: { apiOut: ApiOut }) {
  return (
    <p className="alert info" role="status">
      The {apiOut.plan.name} platform plan has no custom domains. {apiOut.role === 'owner' ? <Link to={`/apis/${apiOut.id}/plan`}>Change the platform plan</Link> : 'An owner of the workspace can change the platform plan.'}
    </p>
  );
}

export function DomainPage() {
  const apiId = useApiId();
  const domain = useQuery({
    queryKey: domainKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/domain', { params: { path: { api: apiId } } })),
    refetchInterval: (query) => (query.state.data?.status === 'pending' || query.state.data?.status === 'verified' ? 5_000 : false),
  });
  const both = useApiAndList(apiId, domain);
  return (
    <QueryState query={both} loading="Loading the custom domain…">
      {({ apiOut, list: current }) => {
        const admin = canAdmin(apiOut.role);
        return (
          <>
            <PageHeader title={`Custom domain of ${apiOut.name}`} description={<>Serve {apiOut.name}’s sign-in pages and customer portal at a name of your own; the address of the issuer follows it.</>} />
            {!current.allowed ? <PlanGate apiOut={apiOut} /> : null}
            <section className="card" aria-labelledby="domain-heading">
              <h2 id="domain-heading">State</h2>
              <DomainState domain={current} />
              {admin && current.domain ? <DomainActions apiId={apiOut.id} domain={current} /> : null}
              {!admin ? <p className="small muted">An admin of the workspace sets, checks and removes the domain.</p> : null}
            </section>
            {current.domain ? <DomainRecords domain={{ ...current, domain: current.domain }} /> : null}
            {admin && current.allowed ? <SetDomain key={current.domain ?? ''} apiId={apiOut.id} current={current} /> : null}
          </>
        );
      }}
    </QueryState>
  );
}
