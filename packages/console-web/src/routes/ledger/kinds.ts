// The kinds of ledger entries (GET …/ledger?kind=), as the console names them. The list is typed
// by the generated client, so a kind the API adds or drops fails the build here.
import type { LedgerKind } from '../../api/records.js';

export const KIND_NAMES: Record<LedgerKind, string> = {
  welcome: 'Welcome credit',
  credit: 'Credit or debit by hand',
  usage: 'Usage',
  topup: 'Top-up',
  plan_credit: 'Plan credit',
  auto_recharge: 'Automatic top-up',
  refund: 'Refund',
  dispute: 'Dispute',
  dispute_won: 'Dispute won',
};

export const KINDS = Object.keys(KIND_NAMES) as LedgerKind[];

export const isKind = (value: string | null): value is LedgerKind => value !== null && value in KIND_NAMES;

/** A kind's name; an entry of a kind this console does not know shows as the API wrote it. */
export const kindName = (kind: string) => (isKind(kind) ? KIND_NAMES[kind] : kind);
