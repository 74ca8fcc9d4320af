// The pages of an API's sign-in service, linked from each of them: the console's side navigation
// names the main ones, and this row reaches the rest without growing it.
import { NavLink } from 'react-router';

const PAGES = [
  ['', 'Settings'],
  ['/apps', 'Apps'],
  ['/servers', 'Servers'],
  ['/roles', 'Roles'],
  ['/people', 'People'],
  ['/connected-apps', 'Apps people connect'],
  ['/keys', 'End-user keys'],
  ['/signing-keys', 'Signing keys'],
  ['/preview', 'Sign-in page'],
] as const;

export function SigninNav({ apiId }: { apiId: string }) {
  return (
    <nav className="actions signin-nav" aria-label="Sign-in service" style={{ marginBottom: 16 }}>
      {PAGES.map(([path, name]) => (
        <NavLink key={path} to={`/apis/${apiId}/signin${path}`} end style={({ isActive }) => (isActive ? { fontWeight: 700, color: 'inherit', textDecoration: 'none' } : undefined)}>
          {name}
        </NavLink>
      ))}
    </nav>
  );
}
