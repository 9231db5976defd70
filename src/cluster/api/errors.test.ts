import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { goQuote, goValue, kubectlErrorMessage, newInvalid, newNotFound } from './errors';

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['plain', 'web', '"web"'],
    ['double quote', 'a"b', '"a\\"b"'],
    ['backslash', 'a\\b', '"a\\\\b"'],
    ['named control escapes', '\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['other C0 controls and DEL as \\x', '\x00\x1b\x7f', '"\\x00\\x1b\\x7f"'],
    ['printable non-ASCII kept', 'é日本😀', '"é日本😀"'],
    ['no-break space', 'a\u00a0b', '"a\\u00a0b"'],
    ['line separator', '\u2028', '"\\u2028"'],
    ['zero-width space (format)', '\u200b', '"\\u200b"'],
    ['astral format character', '\u{e0001}', '"\\U000e0001"'],
    ['lone surrogate is U+FFFD', '\ud800', '"\ufffd"'],
    ['single quote kept', "it's", '"it\'s"'],
  ])('%s', (_n, input, want) => {
    expect(goQuote(input)).toBe(want);
  });
});

describe('messages quote names as Go %q does', () => {
  it.each([
    ['NotFound', () => newNotFound('configmaps', 'a"b').message, 'configmaps "a\\"b" not found'],
    ['Invalid', () => newInvalid('ConfigMap', 'a\nb', [{ type: 'Required', field: 'data' }]).message, 'ConfigMap "a\\nb" is invalid: data: Required value'],
    ['kubectl 422 text', () => kubectlErrorMessage(newInvalid('ConfigMap', 'a"b', [{ type: 'Required', field: 'data' }])), 'The ConfigMap "a\\"b" is invalid: data: Required value'],
    ['%#v of a string value', () => goValue('tab\there'), '"tab\\there"'],
    ['%#v of a string map', () => goValue({ 'k"': 'v\n' }), 'map[string]string{"k\\"":"v\\n"}'],
  ])('%s', (_n, make, want) => {
    expect(make()).toBe(want);
  });

  it('kubectl apply of a ConfigMap named a"b', () => {
    const [r] = new Cluster().apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "a\\"b"\n');
    expect(r.message).toMatch(/^The ConfigMap "a\\"b" is invalid: metadata\.name: Invalid value: "a\\"b": a lowercase RFC 1123 subdomain/);
  });
});
