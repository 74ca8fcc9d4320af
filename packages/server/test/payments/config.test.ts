// The payments settings (README configuration table): Stripe when its key is set, else the
// development provider, which production refuses unless an operator turns it on.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = { SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: '/tmp/gh-config-test' };
const payments = (env: Record<string, string>) => loadConfig({ ...base, ...env }).payments;
const refused = (env: Record<string, string>, setting: string) =>
  assert.throws(() => loadConfig({ ...base, ...env }), (e: unknown) => e instanceof ConfigError && e.setting === setting);

test('the development provider: on by default outside production; in production only with PAYMENTS_DEV_PROVIDER=true', () => {
  assert.equal(payments({}).kind, 'dev');
  assert.equal(payments({ PAYMENTS_DEV_PROVIDER: 'false' }).kind, 'none');
  assert.equal(payments({ NODE_ENV: 'production' }).kind, 'none');
  assert.equal(payments({ NODE_ENV: 'production', PAYMENTS_DEV_PROVIDER: 'true' }).kind, 'dev');
  refused({ PAYMENTS_DEV_PROVIDER: 'yes' }, 'PAYMENTS_DEV_PROVIDER');
});

test('Stripe: a secret key with its webhook secrets (several, comma separated); https in production', () => {
  const stripe = payments({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_a, whsec_b' });
  assert.equal(stripe.kind, 'stripe');
  assert.ok(stripe.kind === 'stripe' && stripe.webhookSecrets.join() === 'whsec_a,whsec_b' && stripe.apiUrl.origin === 'https://api.stripe.com');
  refused({ STRIPE_SECRET_KEY: 'sk_test_abc' }, 'STRIPE_WEBHOOK_SECRET');
  refused({ STRIPE_WEBHOOK_SECRET: 'whsec_a' }, 'STRIPE_WEBHOOK_SECRET');
  refused({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_a' }, 'STRIPE_SECRET_KEY');
  refused({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'secret' }, 'STRIPE_WEBHOOK_SECRET');
  refused({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_a', PAYMENTS_DEV_PROVIDER: 'true' }, 'PAYMENTS_DEV_PROVIDER');
  refused({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_a', STRIPE_API_URL: 'http://127.0.0.1:12111' }, 'STRIPE_API_URL');
});
