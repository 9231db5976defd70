import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import {
  goQuote,
  goValue,
  hasStatusCause,
  kubectlErrorMessage,
  NamespaceTerminatingCause,
  newForbidden,
  newInvalid,
  newNamespaceTerminating,
  newNotFound,
  statusCause,
} from './errors';

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
    [
      'Invalid',
      () => newInvalid('ConfigMap', 'a\nb', [{ type: 'Required', field: 'data' }]).message,
      'ConfigMap "a\\nb" is invalid: data: Required value',
    ],
    [
      'kubectl 422 text',
      () => kubectlErrorMessage(newInvalid('ConfigMap', 'a"b', [{ type: 'Required', field: 'data' }])),
      'The ConfigMap "a\\"b" is invalid: data: Required value',
    ],
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

describe('status causes (errors.go StatusCause, HasStatusCause)', () => {
  const terminating = newNamespaceTerminating('pods', 'web-1', 'team');
  it("newNamespaceTerminating: the lifecycle admission's 403 and its cause", () => {
    expect(terminating.message).toBe(
      'pods "web-1" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
    expect(terminating.status.details).toEqual({
      name: 'web-1',
      kind: 'pods',
      causes: [{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }],
    });
    expect(statusCause(terminating, NamespaceTerminatingCause)?.message).toBe('namespace team is being terminated');
  });
  it.each([
    { name: 'the terminating-namespace 403', err: terminating as unknown, want: true },
    {
      name: 'a 403 with the same words but no cause',
      err: newForbidden('pods', 'web-1', 'unable to create new content in namespace team because it is being terminated'),
      want: false,
    },
    {
      name: 'an Invalid with other causes',
      err: newInvalid('deployments.apps', 'web', [{ type: 'Required', field: 'spec.selector', detail: '' }]),
      want: false,
    },
    { name: 'a plain Error', err: new Error('because it is being terminated'), want: false },
    { name: 'not an error', err: 'NamespaceTerminating', want: false },
  ])('hasStatusCause: $name → $want', ({ err, want }) => {
    expect(hasStatusCause(err, NamespaceTerminatingCause)).toBe(want);
  });
});
