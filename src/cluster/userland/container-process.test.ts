import { describe, expect, test } from 'vitest';
import { planProcess } from './container-process';

describe('planProcess (container-process.ts)', () => {
  const cases: { name: string; c: { image?: string; command?: string[]; args?: string[] }; want: unknown }[] = [
    {
      name: 'echo; sleep; exit 1',
      c: { image: 'busybox', command: ['sh', '-c', 'echo hi; sleep 5; exit 1'] },
      want: { kind: 'exits', afterMs: 5000, exitCode: 1, stdout: ['hi'], ignoresSigterm: true },
    },
    {
      name: 'args carry the script',
      c: { image: 'busybox', args: ['/bin/sh', '-c', 'sleep 2 && exit 3'] },
      want: { kind: 'exits', afterMs: 2000, exitCode: 3, stdout: [], ignoresSigterm: true },
    },
    {
      name: '&& skipped after false, || taken',
      c: { command: ['sh', '-c', 'false && sleep 9; false || echo "it failed"'] },
      want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: ['it failed'], ignoresSigterm: true },
    },
    {
      name: 'last status is the exit code',
      c: { command: ['sh', '-c', 'sleep 1; false'] },
      want: { kind: 'exits', afterMs: 1000, exitCode: 1, stdout: [], ignoresSigterm: true },
    },
    {
      name: 'bare sleep',
      c: { image: 'busybox', command: ['sleep', '3600'] },
      want: { kind: 'exits', afterMs: 3_600_000, exitCode: 0, stdout: [], ignoresSigterm: true },
    },
    {
      name: 'sleep infinity runs',
      c: { command: ['sh', '-c', 'sleep infinity'] },
      want: { kind: 'runs', stdout: [], ignoresSigterm: true, assumed: false },
    },
    {
      name: 'busybox without command exits 0',
      c: { image: 'busybox:1.36' },
      want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: [], ignoresSigterm: true },
    },
    {
      name: 'nginx is assumed long-running',
      c: { image: 'nginx:1.14.2' },
      want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true },
    },
    {
      name: 'a while loop runs (not assumed)',
      c: { command: ['sh', '-c', 'while true; do sleep 1; done'] },
      want: { kind: 'runs', stdout: [], ignoresSigterm: true, assumed: false },
    },
    {
      name: 'variables expand',
      c: { command: ['sh', '-c', 'echo $HOME'] },
      want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: ['/root'], ignoresSigterm: true },
    },
    {
      name: 'command substitution is assumed',
      c: { command: ['sh', '-c', 'echo $(date)'] },
      want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true },
    },
    {
      name: 'perl one-liner prints π and exits',
      c: { image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(10)'] },
      want: { kind: 'exits', afterMs: 10, exitCode: 0, stdout: ['3.141592654'], ignoresSigterm: true },
    },
    {
      name: 'perl -E say, sleep, exit',
      c: { image: 'perl', command: ['perl', '-E', 'say "done"; sleep 3; exit 4'] },
      want: { kind: 'exits', afterMs: 3000, exitCode: 4, stdout: ['done'], ignoresSigterm: true },
    },
    {
      name: 'perl script file is assumed',
      c: { image: 'perl', command: ['perl', '/app/server.pl'] },
      want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true },
    },
    {
      name: 'CronJob docs hello: date; echo',
      c: { image: 'busybox:1.28', command: ['/bin/sh', '-c', 'date; echo Hello from the Kubernetes cluster'] },
      want: {
        kind: 'exits',
        afterMs: 0,
        exitCode: 0,
        stdout: ['Thu Jan  1 00:00:00 UTC 1970', 'Hello from the Kubernetes cluster'],
        ignoresSigterm: true,
      },
    },
    {
      name: 'liveness-exec script',
      c: { image: 'busybox', args: ['/bin/sh', '-c', 'echo ok > /tmp/health; sleep 10; rm -rf /tmp/health; sleep 600'] },
      want: { kind: 'exits', afterMs: 610_000, exitCode: 0, stdout: [], ignoresSigterm: true },
    },
    {
      name: 'files: touch, test, cat of a missing file',
      c: {
        command: [
          'sh',
          '-c',
          'mkdir -p /data/x && touch /data/x/f; [ -f /data/x/f ] && echo yes; rm /data/x/f; cat /data/x/f || echo "status $?"',
        ],
      },
      want: {
        kind: 'exits',
        afterMs: 0,
        exitCode: 0,
        stdout: ['yes', "cat: can't open '/data/x/f': No such file or directory", 'status 1'],
        ignoresSigterm: true,
      },
    },
    {
      name: 'redirection and append',
      c: { command: ['sh', '-c', 'echo a > /tmp/l; echo b >> /tmp/l; cat /tmp/l; rm /nope'] },
      want: {
        kind: 'exits',
        afterMs: 0,
        exitCode: 1,
        stdout: ['a', 'b', "rm: can't remove '/nope': No such file or directory"],
        ignoresSigterm: true,
      },
    },
    {
      name: 'for, if/else, until',
      c: {
        command: [
          'sh',
          '-c',
          'for i in 1 2; do if [ $i = 1 ]; then echo one; else echo other; fi; done; n=0; until [ -f /tmp/x ]; do touch /tmp/x; sleep 2; done',
        ],
      },
      want: { kind: 'exits', afterMs: 2000, exitCode: 0, stdout: ['one', 'other'], ignoresSigterm: true },
    },
    {
      name: 'trap TERM handles SIGTERM',
      c: { command: ['sh', '-c', "trap 'exit 0' TERM; sleep infinity"] },
      want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: false },
    },
    {
      name: 'hostname and date',
      c: { command: ['sh', '-c', 'hostname; date'] },
      want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: ['pod', 'Thu Jan  1 00:00:00 UTC 1970'], ignoresSigterm: true },
    },
    {
      name: 'exit 256 wraps to 0',
      c: { command: ['sh', '-c', 'exit 256'] },
      want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: [], ignoresSigterm: true },
    },
  ];
  test.each(cases)('$name', ({ c, want }) => {
    expect(planProcess(c)).toEqual(want);
  });
});
