import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url, parseShareLink, resolveScenarioUrl, scenarioFetchProblem, shareLink } from './links';

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
    expect(parseShareLink(`?scenario=${encodeURIComponent('scenarios/peekcart.yaml')}`, '', 'http://127.0.0.1:4173/')).toEqual({
      kind: 'path',
      path: 'scenarios/peekcart.yaml',
      name: 'peekcart.yaml',
      apply: false,
      url: 'http://127.0.0.1:4173/scenarios/peekcart.yaml',
    });
    expect(parseShareLink('?scenario=https://evil.example/x.yaml', '')).toMatchObject({ kind: 'invalid' });
    expect(parseShareLink('?scenario=//evil.example/x.yaml', '')).toMatchObject({ kind: 'invalid' });
    expect(parseShareLink('', '')).toBeNull();
  });

  const PAGE = 'http://127.0.0.1:4173/?scenario=x';
  it.each([
    ['a backslash-slash (protocol-relative to the URL parser)', '\\/evil.example:4625/x.yaml'],
    ['two backslashes', '\\\\evil.example/x.yaml'],
    ['slash-backslash', '/\\evil.example/x.yaml'],
    ['a tab inside //', '/\t/evil.example/x.yaml'],
    ['a newline inside //', '/\n/evil.example/x.yaml'],
    ['a carriage return and backslash', '\r\\\\evil.example/x.yaml'],
    ['protocol-relative', '//evil.example/x.yaml'],
    ['an absolute http URL', 'http://evil.example/x.yaml'],
    ['the same host on another port', 'http://127.0.0.1:4625/x.yaml'],
    ['a scheme with a tab', 'ht\ttps://evil.example/x.yaml'],
    ['javascript:', 'javascript:alert(1)//x.yaml'],
    ['data:', 'data:text/plain,a.yaml'],
    ['credentials on the same host', 'http://u:p@127.0.0.1:4173/x.yaml'],
  ])('an off-origin scenario is refused: %s', (_name, value) => {
    expect(resolveScenarioUrl(value, PAGE)).toBeNull();
    expect(parseShareLink(`?scenario=${encodeURIComponent(value)}&apply=1`, '', PAGE)).toMatchObject({ kind: 'invalid' });
  });

  it.each([
    ['a relative path', 'scenarios/a.yaml', 'http://127.0.0.1:4173/scenarios/a.yaml'],
    ['an absolute path', '/scenarios/a.yaml', 'http://127.0.0.1:4173/scenarios/a.yaml'],
    ['the page origin written out', 'http://127.0.0.1:4173/b.yml', 'http://127.0.0.1:4173/b.yml'],
  ])('a same-origin scenario resolves: %s', (_name, value, href) => {
    expect(resolveScenarioUrl(value, PAGE)?.href).toBe(href);
    expect(parseShareLink(`?scenario=${encodeURIComponent(value)}`, '', PAGE)).toMatchObject({ kind: 'path', url: href });
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
