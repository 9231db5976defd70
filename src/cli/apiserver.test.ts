/**
 * `npm run apiserver`'s flags (issue 21): every value is checked before anything starts, with
 * the one-line message the command prints (exit 2).
 */
import { describe, expect, it } from 'vitest';
import { FlagError, parseApiserverFlags } from './apiserver';

describe('npm run apiserver flags', () => {
  it('defaults to loopback, port 6443, real time', () => {
    expect(parseApiserverFlags([])).toEqual({
      port: 6443,
      bindAddress: '127.0.0.1',
      kubeconfig: 'kube-relay.kubeconfig',
      speed: 1,
      corsAllowedOrigins: [],
    });
  });

  it('takes --flag value and --flag=value', () => {
    expect(
      parseApiserverFlags([
        '--port=0',
        '--speed',
        '20',
        '--bind-address=::1',
        '--cors-allowed-origins',
        '^http://127\\.0\\.0\\.1:4173$,^http://localhost:4173$',
      ]),
    ).toMatchObject({
      port: 0,
      speed: 20,
      bindAddress: '::1',
      corsAllowedOrigins: ['^http://127\\.0\\.0\\.1:4173$', '^http://localhost:4173$'],
    });
  });

  it.each([
    [
      ['--speed', '1e6'],
      'invalid argument "1e6" for "--speed" flag: must be a number greater than 0 and at most 1000 (simulated ms per wall ms)',
    ],
    [
      ['--speed', 'Infinity'],
      'invalid argument "Infinity" for "--speed" flag: must be a number greater than 0 and at most 1000 (simulated ms per wall ms)',
    ],
    [
      ['--speed', '-1'],
      'invalid argument "-1" for "--speed" flag: must be a number greater than 0 and at most 1000 (simulated ms per wall ms)',
    ],
    [
      ['--speed', '0'],
      'invalid argument "0" for "--speed" flag: must be a number greater than 0 and at most 1000 (simulated ms per wall ms)',
    ],
    [
      ['--speed', ''],
      'invalid argument "" for "--speed" flag: must be a number greater than 0 and at most 1000 (simulated ms per wall ms)',
    ],
    [['--port', '99999'], 'invalid argument "99999" for "--port" flag: must be an integer from 0 to 65535 (0 picks a free port)'],
    [['--port', '-1'], 'invalid argument "-1" for "--port" flag: must be an integer from 0 to 65535 (0 picks a free port)'],
    [['--port', '80.5'], 'invalid argument "80.5" for "--port" flag: must be an integer from 0 to 65535 (0 picks a free port)'],
    [
      ['--kubeconfig', '/no/such/folder/kc'],
      'invalid argument "/no/such/folder/kc" for "--kubeconfig" flag: folder "/no/such/folder" does not exist',
    ],
    [['--kubeconfig', '/tmp'], 'invalid argument "/tmp" for "--kubeconfig" flag: is a folder, not a file'],
    [['--scenario', '/no/such.yaml'], 'invalid argument "/no/such.yaml" for "--scenario" flag: no such file'],
    [
      ['--bind-address', 'evil.example'],
      'invalid argument "evil.example" for "--bind-address" flag: must be an IP address, e.g. 127.0.0.1',
    ],
    [['--cors-allowed-origins', '('], '--cors-allowed-origins: "(" is not a valid regular expression'],
    [['--foo'], 'unknown flag: --foo'],
    [['--foo=1'], 'unknown flag: --foo'],
    [['serve'], 'unexpected argument "serve"'],
    [['--port'], 'flag needs an argument: --port'],
  ])('%j → %s', (argv, message) => {
    expect(() => parseApiserverFlags(argv)).toThrow(new FlagError(message));
  });

  it('--help asks for the usage', () => {
    expect(parseApiserverFlags(['--port', '1', '--help'])).toBe('help');
  });
});
