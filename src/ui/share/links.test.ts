import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url, parseShareLink, shareLink } from './links';

const YAML = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: héllo-✓\ndata:\n  a: "<script>alert(1)</script>"\n';

describe('share links', () => {
  it('round-trips UTF-8 text through base64url without padding or +/', () => {
    const s = encodeBase64Url(YAML);
    expect(s).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBase64Url(s)).toBe(YAML);
    expect(decodeBase64Url('%%%')).toBeNull();
    expect(decodeBase64Url('_w')).toBeNull(); // not UTF-8
  });

  it('reads #manifest= and ?scenario= (base64url or a path), applying only with apply=1', () => {
    const b = encodeBase64Url(YAML);
    expect(parseShareLink('', `#manifest=${b}`)).toEqual({ kind: 'text', text: YAML, name: 'shared.yaml', apply: false });
    expect(parseShareLink('?apply=1', `#manifest=${b}`)).toMatchObject({ apply: true });
    expect(parseShareLink('', `#manifest=${b}&apply=1`)).toMatchObject({ apply: true });
    expect(parseShareLink(`?scenario=${b}&apply=1`, '')).toEqual({ kind: 'text', text: YAML, name: 'scenario.yaml', apply: true });
    expect(parseShareLink(`?scenario=${encodeURIComponent('scenarios/peekcart.yaml')}`, '')).toEqual({ kind: 'path', path: 'scenarios/peekcart.yaml', name: 'peekcart.yaml', apply: false });
    expect(parseShareLink('?scenario=https://evil.example/x.yaml', '')).toMatchObject({ kind: 'invalid' });
    expect(parseShareLink('?scenario=//evil.example/x.yaml', '')).toMatchObject({ kind: 'invalid' });
    expect(parseShareLink('', '')).toBeNull();
  });

  it('builds a link for the current tab', () => {
    expect(shareLink('http://127.0.0.1:4173/?x=1#y', 'a: 1\n')).toBe(`http://127.0.0.1:4173/#manifest=${encodeBase64Url('a: 1\n')}`);
  });
});
