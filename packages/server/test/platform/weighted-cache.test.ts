import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WeightedCache } from '../../src/platform/weighted-cache.js';

const bytes = (value: string) => value.length;

test('keeps entries while their total weight is within capacity, then forgets the least recently used', () => {
  const cache = new WeightedCache<string, string>(10, bytes);
  cache.set('a', 'aaaa');
  cache.set('b', 'bbbb');
  assert.equal(cache.weight, 8);
  cache.get('a'); // a is now the most recently used
  cache.set('c', 'cc');
  assert.equal(cache.weight, 10, 'exactly at capacity: nothing forgotten');
  assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c')], ['aaaa', 'bbbb', 'cc']);
  cache.get('a');
  cache.get('c');
  cache.set('d', 'd'); // 11 > 10: b, the least recently used, goes
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.weight, 7);
  assert.equal(cache.size, 3);
});

test('replacing an entry counts only its new weight; one heavier than the whole capacity is not kept', () => {
  const cache = new WeightedCache<string, string>(10, bytes);
  cache.set('a', 'aaaaaaaa');
  cache.set('a', 'aa');
  assert.equal(cache.weight, 2);
  cache.set('b', 'b'.repeat(11));
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 'aa', 'what was there stays');
  cache.set('a', 'a'.repeat(11));
  assert.equal(cache.get('a'), undefined, 'a replacement too heavy drops the old value too');
  assert.equal(cache.weight, 0);
});
