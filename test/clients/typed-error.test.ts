// typedError(): the one wrapper every client's exchange ends through, so no error of another kind
// (a stack overflow a hostile server's bytes reached, a bug) reaches a caller untyped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocatorError } from '../../src/core/errors.js';
import { typedError } from '../../src/clients/types.js';

test('typedError: a LocatorError is returned as it is', () => {
  const e = new LocatorError('timeout', -1, 'slow');
  assert.equal(typedError(e, 'x'), e);
});

test('typedError: a RangeError becomes a protocol-error that names where and keeps the original as cause', () => {
  const cause = new RangeError('Maximum call stack size exceeded');
  const e = typedError(cause, 'retrieving wais://h/db');
  assert.ok(e instanceof LocatorError);
  assert.equal(e.code, 'protocol-error');
  assert.equal(e.detail, 'retrieving wais://h/db failed unexpectedly (Maximum call stack size exceeded)');
  assert.equal(e.cause, cause);
});

test('typedError: a thrown non-Error value is named by its string', () => {
  const e = typedError('boom', 'reading');
  assert.equal(e.code, 'protocol-error');
  assert.equal(e.detail, 'reading failed unexpectedly (boom)');
  assert.equal(e.cause, 'boom');
});
