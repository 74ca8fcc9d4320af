import { Link } from 'react-router';
import { PageHeader } from '../components/page.js';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" description="There is no page at this address in the console." />
      <p>
        <Link to="/">Go to your workspace</Link>
      </p>
    </>
  );
}
