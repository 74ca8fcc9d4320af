// The pure rules of end-user keys (src/end-user-keys/rules.ts, key-secret.ts), each on both sides.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWellFormedApiKey } from '@gatehouse/protocol';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { sha256Hex } from '../../src/platform/crypto.js';
import { matchingSecret, newKeySecret, presentedKeyHash } from '../../src/end-user-keys/key-secret.js';
import { expiryOf, grantablePermissions, keyScope, keyState, keysUsable, lifetimeRule } from '../../src/end-user-keys/rules.js';

const exposed = [{ name: 'read', sensitive: false }, { name: 'write', sensitive: true }, { name: 'admin', sensitive: false }];

test('grantable permissions: exposed and held, sensitive ones only when allowed', () => {
  assert.deepEqual(grantablePermissions(exposed, new Set(['read', 'write']), false), ['read']);
  assert.deepEqual(grantablePermissions(exposed, new Set(['read', 'write']), true), ['read', 'write']);
  assert.deepEqual(grantablePermissions(exposed, new Set(['other']), true), []);
});

test("a key's scope keeps the key's order and drops what is no longer exposed, held or allowed", () => {
  assert.deepEqual(keyScope(['write', 'read', 'gone'], exposed, new Set(['read', 'write']), true), ['write', 'read']);
  assert.deepEqual(keyScope(['write', 'read'], exposed, new Set(['read', 'write']), false), ['read']);
  assert.deepEqual(keyScope(['read'], exposed, new Set(), true), []);
});

test('lifetimes: at most the owner\'s limit; no limit allows never and at most 3650 days', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const limited = lifetimeRule(30);
  assert.deepEqual(expiryOf(30, limited, now), { expiresAt: new Date(now.getTime() + 30 * DAY) });
  assert.equal(typeof expiryOf(31, limited, now), 'string');
  assert.equal(typeof expiryOf(null, limited, now), 'string');
  assert.equal(typeof expiryOf(0, limited, now), 'string');
  assert.deepEqual(expiryOf(undefined, limited, now), { expiresAt: new Date(now.getTime() + 30 * DAY) });
  const open = lifetimeRule(null);
  assert.deepEqual(expiryOf(null, open, now), { expiresAt: null });
  assert.deepEqual(expiryOf(3650, open, now), { expiresAt: new Date(now.getTime() + 3650 * DAY) });
  assert.equal(typeof expiryOf(3651, open, now), 'string');
  assert.deepEqual(expiryOf(undefined, open, now), { expiresAt: new Date(now.getTime() + 365 * DAY) });
});

test('state: revoked before expired; expired from the instant of expiry', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  assert.equal(keyState({ revoked_at: null, expires_at: new Date(now.getTime() + 1) }, now), 'active');
  assert.equal(keyState({ revoked_at: null, expires_at: now }, now), 'expired');
  assert.equal(keyState({ revoked_at: null, expires_at: null }, now), 'active');
  assert.equal(keyState({ revoked_at: now, expires_at: new Date(now.getTime() - 1) }, now), 'revoked');
});

test('keys work only on an active service with keys on and a plan that includes them', () => {
  assert.equal(keysUsable({ status: 'active' }, { keys_enabled: true }, true), true);
  assert.equal(keysUsable({ status: 'suspended' }, { keys_enabled: true }, true), false);
  assert.equal(keysUsable({ status: 'active' }, { keys_enabled: false }, true), false);
  assert.equal(keysUsable({ status: 'active' }, { keys_enabled: true }, false), false);
});

test('a new secret: spec 4.4 format, its start, its hash; a presented value is hashed only when well formed', () => {
  const made = newKeySecret('ab1');
  assert.match(made.secret, /^ab1_[0-9A-Za-z]{46}$/);
  assert.ok(isWellFormedApiKey(made.secret));
  assert.equal(made.start, made.secret.slice(0, 8));
  assert.equal(made.hash, sha256Hex(made.secret));
  assert.equal(presentedKeyHash(made.secret), made.hash);
  assert.equal(presentedKeyHash(made.secret.slice(0, -1) + (made.secret.endsWith('0') ? '1' : '0')), null);
  assert.equal(presentedKeyHash('a.b.c'), null);
});

test('which secret opens a key: the current one, or the previous one until its end', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const key = { secret_hash: sha256Hex('new'), previous_secret_hash: sha256Hex('old'), previous_secret_expires_at: new Date(now.getTime() + HOUR) };
  assert.equal(matchingSecret(sha256Hex('new'), key, now), 'current');
  assert.equal(matchingSecret(sha256Hex('old'), key, now), 'previous');
  assert.equal(matchingSecret(sha256Hex('old'), key, new Date(now.getTime() + HOUR)), null);
  assert.equal(matchingSecret(sha256Hex('other'), key, now), null);
});
