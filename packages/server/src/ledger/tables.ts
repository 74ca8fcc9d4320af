// refund, dispute and dispute_won take a payment's credit back and give a won dispute's back (issue 23).
export type LedgerKind = 'welcome' | 'credit' | 'usage' | 'topup' | 'plan_credit' | 'auto_recharge' | 'refund' | 'dispute' | 'dispute_won';

export interface LedgerEntriesTable {
  id: string;
  api_id: string;
  customer_id: string;
  kind: LedgerKind;
  amount_micro: number;
  requests: number;
  usage_day: string | null;
  note: string;
  actor: string;
  ref: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface LedgerTables {
  ledger_entries: LedgerEntriesTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends LedgerTables {}
}
