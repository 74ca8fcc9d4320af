// The portal address of a new API, checked as it is typed (GET /slugs/{slug}, once the typing
// pauses): available, or the reason it is not. Empty is allowed: the server makes one from the name.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.js';
import { key } from '../../app/query-keys.js';
import { Field } from '../../components/field.js';
import { useDebounced } from './use-debounced.js';

const CHECK_DELAY_MS = 300;

export function SlugField({ value, onChange, error }: { value: string; onChange: (slug: string) => void; error: string | undefined }) {
  const typed = value.trim().toLowerCase();
  const settled = useDebounced(typed, CHECK_DELAY_MS);
  const check = useQuery({
    queryKey: key('/api/slugs/{slug}', settled),
    queryFn: () => call(api.GET('/api/slugs/{slug}', { params: { path: { slug: settled } } })),
    enabled: settled !== '',
    staleTime: 5_000,
  });
  const current = typed !== '' && settled === typed ? check.data : undefined;
  const refused = current && !current.available ? `${current.slug}: ${current.reason ?? 'not available'}` : undefined;
  let status = '';
  if (typed === '') status = '';
  else if (settled !== typed || check.isFetching) status = 'Checking…';
  else if (current?.available) status = `${current.slug} is available.`;
  else if (check.error) status = 'The name could not be checked; creating will check it again.';
  return (
    <>
      <Field
        label="Portal address"
        name="slug"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={40}
        autoComplete="off"
        spellCheck={false}
        hint="The customers' portal and sign-in service live at <address>.<portal domain>. 3 to 40 lowercase letters, digits and hyphens. Leave it empty to make one from the name."
        error={error ?? refused}
      />
      <p className={`slug-check${current?.available ? ' available' : ''}`} aria-live="polite" data-testid="slug-check">
        {status}
      </p>
    </>
  );
}
