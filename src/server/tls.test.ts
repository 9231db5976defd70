/**
 * The per-start serving certificate (tls.ts): its serial is a minimal positive DER INTEGER
 * whatever the random bytes, and every certificate it makes loads into a TLS context.
 */
import { createSecureContext } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { positiveSerial, selfSignedCert } from './tls';

describe('positiveSerial', () => {
  it.each([
    ['all zero bytes (a leading 0x00 before a byte < 0x80 is illegal padding)', 0x00, 0x40],
    ['0x7f', 0x7f, 0x7f],
    ['high bit set (would be negative)', 0xff, 0x7f],
    ['0x80', 0x80, 0x40],
  ])('%s', (_name, first, want) => {
    const b = Buffer.alloc(16, 0);
    b[0] = first;
    expect(positiveSerial(b)[0]).toBe(want);
  });
});

describe('selfSignedCert', () => {
  it('loads into a TLS context and names its hosts', () => {
    for (let i = 0; i < 20; i++) {
      const c = selfSignedCert('127.0.0.1', Date.UTC(2026, 0, 1));
      expect(() => createSecureContext({ key: c.keyPem, cert: c.certPem })).not.toThrow();
      expect(new X509Certificate(c.certPem).subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    }
  });
});
