import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url, parseShareLink, scenarioFetchProblem, shareLink } from './links';

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

  it.each([
    ['a YAML file', 200, 'OK', 'application/yaml', 'kind: Pod\n', null],
    ['YAML served without a Content-Type', 200, 'OK', '', 'apiVersion: v1\n', null],
    ['index.html for an unknown path', 200, 'OK', 'text/html; charset=utf-8', '<!doctype html>\n<html>', 'not found'],
    ['an HTML body under another type', 200, 'OK', 'application/octet-stream', '  <!DOCTYPE html><html lang="en">', 'not found'],
    ['an <html> body without a doctype', 200, 'OK', '', '<html><body>', 'not found'],
    ['a 404', 404, 'Not Found', 'text/plain', 'nope', 'not found'],
    ['a 500', 500, 'Internal Server Error', 'text/plain', '', '500 Internal Server Error'],
    ['a 403 over HTTP/2 (no reason phrase)', 403, '', '', '', '403'],
  ] as const)('scenario fetch: %s', (_name, status, statusText, type, body, want) => {
    expect(scenarioFetchProblem(status, statusText, type, body)).toBe(want);
  });
});
