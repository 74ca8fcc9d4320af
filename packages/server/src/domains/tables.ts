import type { Generated } from 'kysely';

/** Spec 3 custom domain states; `none` is the absence of a row. */
export type StoredDomainStatus = 'pending' | 'verified' | 'active' | 'failed';
export type DomainStatus = 'none' | StoredDomainStatus;

export interface CustomDomainsTable {
  api_id: string;
  domain: string;
  status: StoredDomainStatus;
  txt_value: string;
  error: string | null;
  checked_at: Date | null;
  pending_since: Date;
  attempts: Generated<number>;
  next_check_at: Date | null;
  failing_since: Date | null;
  version: Generated<number>;
  created_at: Date;
  updated_at: Date;
}

export interface DomainTables {
  custom_domains: CustomDomainsTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends DomainTables {}
}
