// An API's settings (/apis/:api/settings): every section saves on its own. Opens on the API's
// record alone (shared with the frame), so no request of its own.
import { Link } from 'react-router';
import type { ApiOut } from '../../../api/records.js';
import { StatusBadge } from '../../../components/badge.js';
import { canEdit } from '../../../app/roles.js';
import { useApiId, useApiQuery } from '../../../app/use-api.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { ApiSection } from './api-section.js';
import { BillingSection } from './billing-section.js';
import { BrandingSection } from './branding-section.js';
import { LogoSection } from './logo-section.js';
import { PricingSection } from './pricing-section.js';
import { SignupSection } from './signup-section.js';
import { DeleteSection, StatusSection } from './status-section.js';

/** The platform plan and the payments account, with the pages about them. */
function PlanAndPayments({ apiOut }: { apiOut: ApiOut }) {
  const payments = apiOut.payments;
  return (
    <section className="card settings-section" aria-labelledby="plan-heading">
      <h2 id="plan-heading">Plan and payments</h2>
      <p>
        Platform plan: <strong>{apiOut.plan.name}</strong> <StatusBadge status={apiOut.plan_status} /> · <Link to={`/apis/${apiOut.id}/plan`}>Platform plan</Link>
      </p>
      <p>
        Payments account:{' '}
        {payments.connected ? <StatusBadge status={payments.charges_enabled ? 'connected' : 'pending'} label={payments.charges_enabled ? 'connected' : 'onboarding not finished'} /> : <span className="muted">not connected</span>} ·{' '}
        <Link to={`/apis/${apiOut.id}/payments`}>Payments</Link>
      </p>
    </section>
  );
}

export function SettingsPage() {
  const apiId = useApiId();
  const apiQuery = useApiQuery(apiId);
  return (
    <QueryState query={apiQuery} loading="Loading the settings…">
      {(apiOut) => (
        <>
          <PageHeader
            title={`Settings of ${apiOut.name}`}
            description={
              <>
                Prices, limits, payments, branding and sign-up of{' '}
                <a href={apiOut.portal_url} rel="noopener">
                  {apiOut.slug}
                </a>
                . Each section saves on its own.
              </>
            }
            actions={<Link to={`/apis/${apiOut.id}/connect`}>Connect</Link>}
          />
          {canEdit(apiOut.role) ? null : <p className="alert info">You are a viewer of this workspace: you see the settings, and editors change them.</p>}
          <PlanAndPayments apiOut={apiOut} />
          <PricingSection apiOut={apiOut} />
          <BillingSection apiOut={apiOut} />
          <BrandingSection apiOut={apiOut} />
          <LogoSection apiOut={apiOut} />
          <SignupSection apiOut={apiOut} />
          <ApiSection apiOut={apiOut} />
          <StatusSection apiOut={apiOut} />
          <DeleteSection apiOut={apiOut} />
        </>
      )}
    </QueryState>
  );
}
