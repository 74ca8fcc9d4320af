// The two DNS records an owner adds at their DNS provider, each value with a copy button: the CNAME
// that sends the domain's traffic here, and the TXT record that proves the name is theirs.
import { CopyButton } from '../../components/copy.js';
import type { DomainOut } from './types.js';

function Value({ value, label }: { value: string; label: string }) {
  return (
    <dd>
      <code>{value}</code>
      <CopyButton value={value} label={`Copy ${label}`} />
    </dd>
  );
}

export function DomainRecords({ domain }: { domain: DomainOut & { domain: string } }) {
  return (
    <section className="card" aria-labelledby="records-heading">
      <h2 id="records-heading">DNS records to add</h2>
      <p className="muted small">At the company that runs the DNS of {domain.domain}. A name at the zone's apex cannot have a CNAME: use your provider's ALIAS or ANAME (flattening) to the same target.</p>
      <h3>1. CNAME: where the traffic goes</h3>
      <dl className="dns-record" data-testid="cname-record">
        <dt>Type</dt>
        <dd>
          <code>CNAME</code>
        </dd>
        <dt>Name</dt>
        <Value value={domain.domain} label="CNAME name" />
        <dt>Target</dt>
        <Value value={domain.cname_target} label="CNAME target" />
      </dl>
      {domain.txt_name && domain.txt_value ? (
        <>
          <h3>2. TXT: proof that the name is yours</h3>
          <dl className="dns-record" data-testid="txt-record">
            <dt>Type</dt>
            <dd>
              <code>TXT</code>
            </dd>
            <dt>Name</dt>
            <Value value={domain.txt_name} label="TXT name" />
            <dt>Value</dt>
            <Value value={domain.txt_value} label="TXT value" />
          </dl>
        </>
      ) : null}
    </section>
  );
}
