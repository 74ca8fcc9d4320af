// The signing keys of an API's sign-in service (/apis/:api/signin/signing-keys): the key that signs
// new tokens and the retired ones still published in the key set, newest first. An admin rotates
// (confirmed): a new key signs from now on, and the old one stays published for the access-token
// lifetime plus 24 hours, so tokens it signed keep verifying. Opens on the session, the API's
// record and the keys.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canAdmin } from '../../../app/roles.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { Empty, QueryState } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { signingKeysKey } from './keys.js';
import { SigninNav } from './signin-nav.js';
import type { SigningKeyOut } from './types.js';

function RotateKey({ apiOut, hasKey }: { apiOut: ApiOut; hasKey: boolean }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/signin/signing-keys/rotate', { params: { path: { api: apiOut.id } } })),
    onSuccess: (answer) => queryClient.setQueryData(signingKeysKey(apiOut.id), answer),
  });
  return (
    <ConfirmButton label={hasKey ? 'Rotate signing key' : 'Make the signing key'} title="Rotate the signing key" danger={false} className="" confirmLabel={hasKey ? 'Rotate signing key' : 'Make the signing key'} onOpen={() => rotate.reset()} onConfirm={() => rotate.mutateAsync()}>
      {hasKey ? (
        <p>
          A new key signs every token from now on. The current one stays in the published key set for the access-token lifetime plus 24 hours, so tokens it signed keep verifying and apps that cache the key set have time to read the new one. Rotate when a key may have leaked, or on a schedule.
        </p>
      ) : (
        <p>The first key is made on the sign-in service's first use anyway; making it now publishes it at once.</p>
      )}
      <FormError error={rotate.error} />
    </ConfirmButton>
  );
}

function KeysTable({ keys }: { keys: SigningKeyOut[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Signing keys</caption>
        <thead>
          <tr>
            <th scope="col">Key ID (kid)</th>
            <th scope="col">State</th>
            <th scope="col">Made</th>
            <th scope="col">Retired</th>
            <th scope="col">Published until</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.kid} data-testid={`signing-key-${key.kid}`}>
              <td className="small">
                <code>{key.kid}</code>
              </td>
              <td>{key.active ? <StatusBadge status="active" label="signing" /> : <StatusBadge status="off" label="retired" />}</td>
              <td className="nowrap">{formatTime(key.created_at)}</td>
              <td className="nowrap">{key.retired_at ? formatTime(key.retired_at) : <span className="muted">—</span>}</td>
              <td className="nowrap">{key.published_until ? formatTime(key.published_until) : <span className="muted">while it signs</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SigninSigningKeysPage() {
  const apiId = useApiId();
  const keys = useQuery({
    queryKey: signingKeysKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/signing-keys', { params: { path: { api: apiId } } })),
    select: (answer) => answer.keys,
  });
  const both = useApiAndList(apiId, keys);
  return (
    <QueryState query={both} loading="Loading the signing keys…">
      {({ apiOut, list }) => (
        <>
          <PageHeader
            title={`Signing keys of ${apiOut.name}`}
            description={<>The RSA keys that sign {apiOut.name}'s ID and access tokens, published in its key set (JWKS) for apps and servers to check them.</>}
            actions={canAdmin(apiOut.role) ? <RotateKey apiOut={apiOut} hasKey={list.length > 0} /> : null}
          />
          <SigninNav apiId={apiOut.id} />
          {list.length ? (
            <KeysTable keys={list} />
          ) : (
            <Empty title="No signing key yet">
              <p>The first key is made when the sign-in service is first used.</p>
            </Empty>
          )}
          {canAdmin(apiOut.role) ? null : <p className="muted">Admins rotate the signing key.</p>}
        </>
      )}
    </QueryState>
  );
}
