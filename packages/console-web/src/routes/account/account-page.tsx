// /account: the signed-in person's name, password and two-factor sign-in. Everything it shows is
// the frame's GET /api/me, so opening it costs no request of its own.
import { PageHeader } from '../../components/page.js';
import { useSession } from '../../app/session.js';
import { PasswordForm } from './password-form.js';
import { ProfileForm } from './profile-form.js';
import { TwoFactorCard } from './two-factor-card.js';

export function AccountPage() {
  const { user } = useSession();
  return (
    <>
      <PageHeader title="Account" description={`Signed in as ${user.email}. These settings are yours, in every workspace.`} />
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <ProfileForm user={user} />
      </section>
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <PasswordForm />
      </section>
      <section className="card" aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading">Two-factor sign-in</h2>
        <TwoFactorCard user={user} />
      </section>
    </>
  );
}
