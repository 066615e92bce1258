// util.autoId, util.autoUlid, util.autoKsuid: identifiers as AppSync makes them, the time-ordered
// ones stamped with the server's clock (invocation.now), so a fixed fixture clock gives ids of
// that instant.
import { randomBytes, randomUUID } from 'node:crypto';
import { invocation } from './invocation.mjs';

// Crockford's base 32, ULID's alphabet: no I, L, O, U.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// KSUID counts seconds from 2014-05-13T16:53:20Z.
const KSUID_EPOCH_SECONDS = 1400000000;

/** A random version 4 UUID, lower case. */
export function autoId() {
  return randomUUID();
}

/** A ULID: 10 characters of milliseconds, then 16 random ones. */
export function autoUlid() {
  let time = Math.max(0, Math.floor(invocation.now));
  let stamp = '';
  for (let i = 0; i < 10; i += 1) {
    stamp = CROCKFORD[time % 32] + stamp;
    time = Math.floor(time / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (let i = 0; i < 16; i += 1) random += CROCKFORD[bytes[i] % 32];
  return stamp + random;
}

/** A KSUID: 4 bytes of seconds since KSUID's epoch and 16 random bytes, 27 base 62 digits. */
export function autoKsuid() {
  const seconds = Math.max(0, Math.floor(invocation.now / 1000) - KSUID_EPOCH_SECONDS);
  const bytes = Buffer.concat([Buffer.from([(seconds >>> 24) & 255, (seconds >>> 16) & 255, (seconds >>> 8) & 255, seconds & 255]), randomBytes(16)]);
  let number = BigInt('0x' + bytes.toString('hex'));
  let text = '';
  while (number > 0n) {
    text = BASE62[Number(number % 62n)] + text;
    number /= 62n;
  }
  return text.padStart(27, '0');
}
