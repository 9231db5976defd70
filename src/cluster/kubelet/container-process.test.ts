import { describe, expect, test } from 'vitest';
import { planProcess } from './container-process';

describe('planProcess (container-process.ts)', () => {
  const cases: { name: string; c: { image?: string; command?: string[]; args?: string[] }; want: unknown }[] = [
    { name: 'echo; sleep; exit 1', c: { image: 'busybox', command: ['sh', '-c', 'echo hi; sleep 5; exit 1'] }, want: { kind: 'exits', afterMs: 5000, exitCode: 1, stdout: ['hi'], ignoresSigterm: true } },
    { name: 'args carry the script', c: { image: 'busybox', args: ['/bin/sh', '-c', 'sleep 2 && exit 3'] }, want: { kind: 'exits', afterMs: 2000, exitCode: 3, stdout: [], ignoresSigterm: true } },
    { name: '&& skipped after false, || taken', c: { command: ['sh', '-c', 'false && sleep 9; false || echo "it failed"'] }, want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: ['it failed'], ignoresSigterm: true } },
    { name: 'last status is the exit code', c: { command: ['sh', '-c', 'sleep 1; false'] }, want: { kind: 'exits', afterMs: 1000, exitCode: 1, stdout: [], ignoresSigterm: true } },
    { name: 'bare sleep', c: { image: 'busybox', command: ['sleep', '3600'] }, want: { kind: 'exits', afterMs: 3_600_000, exitCode: 0, stdout: [], ignoresSigterm: true } },
    { name: 'sleep infinity runs', c: { command: ['sh', '-c', 'sleep infinity'] }, want: { kind: 'runs', stdout: [], ignoresSigterm: true, assumed: false } },
    { name: 'busybox without command exits 0', c: { image: 'busybox:1.36' }, want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: [], ignoresSigterm: true } },
    { name: 'nginx is assumed long-running', c: { image: 'nginx:1.14.2' }, want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true } },
    { name: 'a while loop is not understood', c: { command: ['sh', '-c', 'while true; do sleep 1; done'] }, want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true } },
    { name: 'variables are not understood', c: { command: ['sh', '-c', 'echo $HOME'] }, want: { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true } },
    { name: 'exit 256 wraps to 0', c: { command: ['sh', '-c', 'exit 256'] }, want: { kind: 'exits', afterMs: 0, exitCode: 0, stdout: [], ignoresSigterm: true } },
  ];
  test.each(cases)('$name', ({ c, want }) => {
    expect(planProcess(c)).toEqual(want);
  });
});
