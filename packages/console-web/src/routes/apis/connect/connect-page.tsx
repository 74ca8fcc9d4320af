// An API's Connect page (/apis/:api/connect): the SDK secret, the SDK's install lines and code with
// this API's values, a test key with a curl line, and the connection status. Where a new API lands.
// On open it asks for the API (shared with the frame) and its connection; the secret only on request.
import { useLocation } from 'react-router';
import { useApiId, useApiQuery } from '../../../app/use-api.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { ConnectionCard } from './connection-card.js';
import { InstallTabs } from './install-tabs.js';
import { SecretCard } from './secret-card.js';
import { TestKeyCard } from './test-key-card.js';

export function ConnectPage() {
  const apiId = useApiId();
  const apiQuery = useApiQuery(apiId);
  const location = useLocation();
  const justCreated = (location.state as { created?: boolean } | null)?.created === true;
  return (
    <QueryState query={apiQuery} loading="Loading the API…">
      {(apiOut) => (
        <>
          <PageHeader
            title={`Connect ${apiOut.name}`}
            description={
              <>
                Meter your API with the SDK. Its customers sign up at{' '}
                <a href={apiOut.portal_url} rel="noopener">
                  {apiOut.portal_url}
                </a>
                .
              </>
            }
          />
          <div className="connect-grid">
            <div>
              <SecretCard apiOut={apiOut} justCreated={justCreated} />
              <InstallTabs values={{ baseUrl: window.location.origin, keyHeader: apiOut.key_header }} />
            </div>
            <div>
              <ConnectionCard apiId={apiOut.id} />
              <TestKeyCard apiOut={apiOut} />
            </div>
          </div>
        </>
      )}
    </QueryState>
  );
}
