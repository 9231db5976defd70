import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base32, chainHash, hex, sha256, sha256Each, utf8 } from './hash';
import { servicePortEndpointChainName, servicePortPolicyClusterChain } from '../proxy/iptables';

describe('sha256 / base32 (FIPS 180-4 and RFC 4648 test vectors)', () => {
  it('sha256 known vectors', () => {
    expect(hex(sha256(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(hex(sha256('a'.repeat(1000)))).toBe('41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3');
  });
  it('sha256 FIPS 180-4 long vectors: the 896-bit message and one million "a" (multi-block)', () => {
    expect(
      hex(sha256('abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu')),
    ).toBe('cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1');
    expect(hex(sha256('a'.repeat(1_000_000)))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });
  it('sha256 of every length around the padding boundaries, as bytes and as strings (node:crypto)', () => {
    for (let n = 0; n <= 200; n++) {
      const s = Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
      const want = createHash('sha256').update(s).digest('hex');
      expect(hex(sha256(s))).toBe(want);
      expect(hex(sha256(utf8(s)))).toBe(want);
    }
  });
  it('sha256 and utf8 of non-ASCII text: 2-, 3- and 4-byte UTF-8, and a lone surrogate as 3 bytes (WTF-8)', () => {
    const text = 'ünïcødé — 한국어 ✓ 🚀🐳 '.repeat(40);
    expect(hex(utf8(text))).toBe(Buffer.from(text, 'utf8').toString('hex'));
    expect(hex(sha256(text))).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    expect(hex(utf8('a\ud800b\udc00'))).toBe('61eda08062edb080');
    expect(hex(utf8('\ud83d\ude80'))).toBe('f09f9a80');
  });
  it('sha256Each equals sha256 of each concatenation', () => {
    const suffix = 'eyJhbGciOiJSUzI1NiJ9.ünï🚀'.repeat(30);
    const prefixes = ['k|0|', 'k|1|', 'ключ|22|', ''];
    const want = prefixes.map((p) => hex(sha256(p + suffix))).join('');
    expect(hex(sha256Each(prefixes, suffix))).toBe(want);
  });
  it('base32 (RFC 4648 §10)', () => {
    const b = (s: string) => base32(Uint8Array.from([...s].map((c) => c.charCodeAt(0))));
    expect(b('')).toBe('');
    expect(b('f')).toBe('MY======');
    expect(b('fo')).toBe('MZXQ====');
    expect(b('foo')).toBe('MZXW6===');
    expect(b('foob')).toBe('MZXW6YQ=');
    expect(b('fooba')).toBe('MZXW6YTB');
    expect(b('foobar')).toBe('MZXW6YTBOI======');
  });
  it('chain names match a real kube-proxy iptables-save dump', () => {
    // names seen on every kubeadm cluster (default/kubernetes, kube-system/kube-dns)
    expect(servicePortPolicyClusterChain('default/kubernetes:https', 'tcp')).toBe('KUBE-SVC-NPX46M4PTMTKRN6Y');
    expect(servicePortPolicyClusterChain('kube-system/kube-dns:dns', 'udp')).toBe('KUBE-SVC-TCOU7JCQXEZGVUNU');
    expect(servicePortPolicyClusterChain('kube-system/kube-dns:dns-tcp', 'tcp')).toBe('KUBE-SVC-ERIFXISQEP7F7OF4');
    expect(servicePortPolicyClusterChain('kube-system/kube-dns:metrics', 'tcp')).toBe('KUBE-SVC-JD5MR3NA4I4DYORP');
    // endpoint chains from the same dump
    expect(servicePortEndpointChainName('default/kubernetes:https', 'tcp', '172.31.7.91:6443')).toBe('KUBE-SEP-Z256WNARC5DJQIZM');
    expect(servicePortEndpointChainName('kube-system/kube-dns:dns-tcp', 'tcp', '10.244.0.2:53')).toBe('KUBE-SEP-IT2ZTR26TO4XFPTO');
    expect(servicePortEndpointChainName('kube-system/kube-dns:dns-tcp', 'tcp', '10.244.0.3:53')).toBe('KUBE-SEP-ZXMNUKOKXUTL2MK2');
    expect(servicePortEndpointChainName('kube-system/kube-dns:dns', 'udp', '10.244.0.3:53')).toBe('KUBE-SEP-6E7XQMQ4RAYOWTTM');
    expect(servicePortEndpointChainName('kube-system/kube-dns:metrics', 'tcp', '10.244.0.2:9153')).toBe('KUBE-SEP-N4G2XR5TDX7PQE7P');
    expect(chainHash('default/kubernetes:httpstcp')).toBe('NPX46M4PTMTKRN6Y');
  });
});
