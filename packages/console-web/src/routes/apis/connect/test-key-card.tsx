// The test key (POST /apis/{api}/test-key, editors): a key of the API's funded test customer,
// shown once, with a curl line against where the API runs. Its requests count, never charge.
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { CopyButton, ShownOnce } from '../../../components/copy.js';
import { FormError } from '../../../components/field.js';
import { formatMicro } from '../../../format/money.js';
import { curlLine } from './snippets.js';

export function TestKeyCard({ apiOut }: { apiOut: ApiOut }) {
  const make = useMutation({ mutationFn: () => call(api.POST('/api/apis/{api}/test-key', { params: { path: { api: apiOut.id } } })) });
  const testKey = make.data;
  const target = apiOut.api_base_url || 'http://localhost:3000';
  const curl = testKey ? curlLine(target, testKey.key_header, testKey.key) : '';
  return (
    <section className="card" aria-labelledby="test-key-heading">
      <h2 id="test-key-heading">Try it with a test key</h2>
      <p className="muted">
        A key of the API's test customer, which has credit to spend: its requests count in your totals but are never charged. Each new test key tops its credit up
        again.
      </p>
      {canEdit(apiOut.role) ? (
        <button type="button" className={testKey ? 'secondary' : undefined} onClick={() => make.mutate()} disabled={make.isPending}>
          {make.isPending ? 'Making a test key…' : testKey ? 'Make another test key' : 'Make a test key'}
        </button>
      ) : (
        <p className="small">Editors, admins and owners make test keys.</p>
      )}
      <FormError error={make.error} />
      {testKey ? (
        <div className="test-key">
          <ShownOnce value={testKey.key} label="Your test key." testId="test-key" />
          <p className="small">The test customer has {formatMicro(testKey.balance_micro)} of credit. Send the key in the <code>{testKey.key_header}</code> header:</p>
          <div className="code-block">
            <div className="code-head">
              <span className="small muted">curl</span>
              <CopyButton value={curl} label="Copy curl line" />
            </div>
            <pre tabIndex={0} role="region" aria-label="curl line" className="wrap">
              <code data-testid="curl-line">{curl}</code>
            </pre>
          </div>
          {apiOut.api_base_url ? null : (
            <p className="small muted">
              The line uses <code>http://localhost:3000</code>, where the examples listen; set where your API runs in its <Link to={`/apis/${apiOut.id}/settings`}>settings</Link>.
            </p>
          )}
        </div>
      ) : null}
    </section>
  );
}
