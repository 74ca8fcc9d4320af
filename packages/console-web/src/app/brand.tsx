import { Link } from 'react-router';

/** The product's mark and name, linking home. */
export function Brand() {
  return (
    <Link to="/" className="brand" aria-label="Gatehouse, home">
      <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="#4f46e5" />
        <path d="M9 25V13l7-5 7 5v12h-5v-7h-4v7z" fill="#fff" />
      </svg>
      Gatehouse
    </Link>
  );
}
