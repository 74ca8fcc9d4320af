// A record read afresh when a dialog opens, so a change starts from the record as it is now and
// not from a list read minutes ago (another member may have changed it since). Nothing is kept
// once the dialog closes (gcTime 0), so every opening reads again.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormError } from '../../../components/field.js';
import { Loading } from '../../../components/states.js';

export function Fresh<T>({ queryKey, read, children }: { queryKey: readonly unknown[]; read: () => Promise<T>; children: (record: T) => ReactNode }) {
  const record = useQuery({ queryKey, queryFn: read, gcTime: 0, staleTime: 0 });
  if (record.isPending) return <Loading label="Loading…" />;
  if (record.error) return <FormError error={record.error} />;
  return <>{children(record.data)}</>;
}
