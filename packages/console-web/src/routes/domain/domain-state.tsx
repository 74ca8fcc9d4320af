// What a domain's state means to its owner, in words, with the last check's error.
import { StatusBadge } from '../../components/badge.js';
import { formatTime } from '../../format/time.js';
import type { DomainOut } from './types.js';

const MEANING: Record<DomainOut['status'], string> = {
  none: 'No custom domain: the sign-in pages and portal are served at the API’s own address only.',
  pending: 'Waiting for its DNS records. It is checked a minute after setting, then less and less often, for 72 hours.',
  verified: 'The records prove the name, but it is not served yet: a certificate cannot be issued for it (see the error).',
  active: 'Served: the sign-in pages and portal answer at this name. Its records are checked again daily.',
  failed: 'Not served: the records were not right within 72 hours, or stayed wrong for 24 hours. Fix them and check now.',
};

const BADGE: Record<DomainOut['status'], string> = { none: 'off', pending: 'pending', verified: 'pending', active: 'active', failed: 'failed' };

export function DomainState({ domain }: { domain: DomainOut }) {
  return (
    <>
      <p data-testid="domain-state">
        {domain.domain ? <strong>{domain.domain}</strong> : null} <StatusBadge status={BADGE[domain.status]} label={domain.status} />
      </p>
      <p>{MEANING[domain.status]}</p>
      {domain.error ? (
        <div className="alert error" role="alert" data-testid="domain-error">
          <p>{domain.error}</p>
        </div>
      ) : null}
      {domain.checked_at ? <p className="small muted">Last checked {formatTime(domain.checked_at)}.</p> : null}
    </>
  );
}
