import { Link } from 'react-router';

/** The ways back to the API from a return page. */
export function BackLinks({ apiId }: { apiId: string }) {
  return (
    <p className="actions">
      <Link to={`/apis/${apiId}`}>Dashboard</Link>
      <Link to={`/apis/${apiId}/connect`}>Connect</Link>
      <Link to={`/apis/${apiId}/settings`}>Settings</Link>
    </p>
  );
}
