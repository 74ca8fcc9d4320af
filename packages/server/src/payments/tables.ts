import type { ColumnType } from 'kysely';

export type ProviderName = 'stripe' | 'dev';

export interface PaymentAccountsTable {
  api_id: string;
  provider: ProviderName;
  account_id: string;
  livemode: boolean;
  charges_enabled: boolean;
  account_name: string | null;
  connected_at: Date;
  disconnected_at: Date | null;
  status_event_at: Date | null;
  updated_at: Date;
}

export interface PaymentEventsTable {
  provider: ProviderName;
  event_id: string;
  type: string;
  account_id: string | null;
  outcome: string;
  received_at: Date;
}

export interface PaymentCustomersTable {
  api_id: string;
  customer_id: string;
  account_id: string;
  provider_customer_id: string;
  payment_method_id: string | null;
  subscription_id: string | null;
  subscription_event_at: Date | null;
  past_due_since: Date | null;
  updated_at: Date;
}

export interface PlanPricesTable {
  plan_id: string;
  api_id: string;
  account_id: string;
  product_id: string;
  price_id: string;
  amount_cents: number;
  created_at: Date;
}

/** One platform subscription of an API at the provider; at most one is live per API (0016). */
export interface PlatformSubscriptionsTable {
  subscription_id: string;
  api_id: string;
  provider_customer_id: string | null;
  /** The provider's status (canceled, incomplete_expired and our own `unpaid` and `duplicate` are not live). */
  status: string;
  plan_code: string | null;
  event_at: Date | null;
  grace_warned_at: Date | null;
  updated_at: Date;
}

/** Statuses of a live subscription: it bills, and the API's plan follows it. */
export const LIVE_SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due'] as const;

export interface DevPaymentObjectsTable {
  id: string;
  kind: string;
  account_id: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Date;
}

/** A checkout the portal started: the paying person, so the receipt reaches them. */
export interface PaymentCheckoutsTable {
  session_id: string;
  api_id: string;
  customer_id: string;
  kind: 'topup' | 'subscription' | 'setup';
  person_id: string | null;
  /** The paying person's address (a top-up's receipt goes to them); null without one. */
  email: string | null;
  amount_cents: number;
  created_at: Date;
  /** The plan a subscription checkout is for, so the plan's withdrawal can close it. */
  plan_id: string | null;
  /** When it was expired at the provider because its plan was deleted or deactivated. */
  expired_at: Date | null;
}

/** What a receipt is for: a top-up, an automatic top-up, or a paid invoice of a plan. */
export type ReceiptKind = 'topup' | 'auto_recharge' | 'plan';

/** A payment that added credit, keyed like its ledger entry (the provider's object id). */
export interface PaymentReceiptsTable {
  api_id: string;
  ref: string;
  customer_id: string;
  kind: ReceiptKind;
  account_id: string;
  amount_cents: number;
  /** The credit added; null: amount_cents × 10,000. */
  credit_micro: ColumnType<number | null, number | null | undefined, never>;
  description: ColumnType<string, string | undefined, never>;
  payer_email: string | null;
  receipt_url: string | null;
  mail_claimed_at: Date | null;
  mailed_at: Date | null;
  created_at: Date;
  /** The provider's payment intent of the payment: refunds and disputes name it. */
  payment_intent_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Cumulative amount refunded (the provider's amount_refunded), and the credit taken back for it. */
  refunded_cents: ColumnType<number, number | undefined, number>;
  refunded_credit_micro: ColumnType<number, number | undefined, number>;
  dispute_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** open (credit taken), won (given back), lost, or the provider's other closing status. */
  dispute_status: ColumnType<string | null, string | null | undefined, string | null>;
  disputed_credit_micro: ColumnType<number, number | undefined, number>;
}

export interface PaymentTables {
  payment_accounts: PaymentAccountsTable;
  payment_events: PaymentEventsTable;
  payment_customers: PaymentCustomersTable;
  plan_prices: PlanPricesTable;
  platform_subscriptions: PlatformSubscriptionsTable;
  dev_payment_objects: DevPaymentObjectsTable;
  payment_checkouts: PaymentCheckoutsTable;
  payment_receipts: PaymentReceiptsTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends PaymentTables {}
}
