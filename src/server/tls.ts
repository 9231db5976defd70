/**
 * The serving certificate of `npm run apiserver`: a self-signed ECDSA P-256 certificate made at
 * each start (node:crypto keys and signature, the X.509 DER written here), valid for 127.0.0.1,
 * ::1, localhost and the address the server binds, written into the kubeconfig as
 * certificate-authority-data — the way kubeadm's apiserver serves a certificate its kubeconfig
 * trusts. kubectl (client-go's clientcmd) sends a kubeconfig's credentials only over TLS, so the
 * bearer token (auth.ts) needs it.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** A PEM key pair for tls.createServer, and the certificate PEM a client trusts. */
export interface ServingCert {
  keyPem: string;
  certPem: string;
}

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
};
const seq = (...c: Buffer[]) => tlv(0x30, ...c);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const v of rest) {
    const enc: number[] = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) enc.unshift((x & 0x7f) | 0x80);
    out.push(...enc);
  }
  return tlv(0x06, Buffer.from(out));
}
function utcTime(ms: number): Buffer {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return tlv(
    0x17,
    Buffer.from(
      `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`,
    ),
  );
}
function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return Buffer.concat(groups.map((g) => Buffer.from([parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff])));
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

/**
 * A certificate serial number as DER wants it (RFC 5280 §4.1.2.2): a positive INTEGER in its
 * minimal encoding. The first byte keeps bit 7 clear (positive) and bit 6 set, so it is never
 * 0x00 — a leading zero byte before one below 0x80 is a non-minimal encoding that OpenSSL
 * refuses ("asn1 encoding routines::illegal padding").
 * @param random 16 random bytes (modified and returned)
 */
export function positiveSerial(random: Buffer): Buffer {
  random[0] = (random[0] & 0x3f) | 0x40;
  return random;
}

/**
 * Makes a fresh key and a self-signed certificate (CN kube-relay, CA:TRUE, serverAuth), valid
 * from an hour ago for a year, with subjectAltNames 127.0.0.1, ::1, localhost and `host`.
 * @param host the address the server binds (an IP or a DNS name).
 * @param nowMs wall-clock ms (Date.now()).
 */
export function selfSignedCert(host: string, nowMs: number): ServingCert {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const serial = positiveSerial(randomBytes(16));
  const name = seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from('kube-relay')))));
  const ips = new Set(['127.0.0.1', '::1']);
  const dns = new Set(['localhost']);
  if (isIP(host)) ips.add(host);
  else if (host) dns.add(host);
  const san = seq(
    ...[...ips].filter((ip) => ip !== '0.0.0.0' && ip !== '::').map((ip) => tlv(0x87, ipBytes(ip))),
    ...[...dns].map((d) => tlv(0x82, Buffer.from(d))),
  );
  const TRUE = tlv(0x01, Buffer.from([0xff]));
  const ext = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [TRUE] : []), tlv(0x04, value));
  const extensions = tlv(
    0xa3,
    seq(
      ext('2.5.29.19', true, seq(TRUE)), // basicConstraints CA:TRUE
      ext('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))), // keyUsage digitalSignature, keyCertSign
      ext('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage serverAuth
      ext('2.5.29.17', false, san),
    ),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ECDSA_SHA256,
    name,
    seq(utcTime(nowMs - 3600_000), utcTime(nowMs + 365 * 86400_000)),
    name,
    spki,
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), signature));
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n');
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    certPem: `-----BEGIN CERTIFICATE-----\n${b64.trimEnd()}\n-----END CERTIFICATE-----\n`,
  };
}
