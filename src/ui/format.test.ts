import { describe, expect, it } from 'vitest';
import { formatAge, formatCountdown, formatSimTime, shortName, statusTone } from './format';

describe('format', () => {
  it('prints simulated time and countdowns', () => {
    expect(formatSimTime(0)).toBe('00:00:00');
    expect(formatSimTime(5 * 3600_000 + 12 * 60_000 + 7_999)).toBe('05:12:07');
    expect(formatCountdown(4 * 60_000 + 11_001)).toBe('4:12');
    expect(formatCountdown(-5)).toBe('0:00');
    // from one hour on h:mm:ss (a CronJob's next run), never "1323:09"
    expect(formatCountdown(3599_000)).toBe('59:59');
    expect(formatCountdown(3600_000)).toBe('1:00:00');
    expect(formatCountdown(1323 * 60_000 + 9_000)).toBe('22:03:09');
    expect(formatCountdown(7 * 86_400_000)).toBe('168:00:00');
  });

  it('prints AGE as kubectl does (duration.HumanDuration)', () => {
    expect(formatAge(45_000)).toBe('45s');
    expect(formatAge(119_000)).toBe('119s');
    expect(formatAge(5 * 60_000 + 12_000)).toBe('5m12s');
    expect(formatAge(42 * 60_000)).toBe('42m');
    expect(formatAge(3 * 3600_000 + 20 * 60_000)).toBe('3h20m');
    expect(formatAge(30 * 3600_000)).toBe('30h');
    expect(formatAge(52 * 3600_000)).toBe('2d4h');
    expect(formatAge(40 * 86400_000)).toBe('40d');
  });

  it('shortens names keeping the owner and the Pod suffix', () => {
    expect(shortName('peekcart-57f6cd6664-47k97')).toBe('peekcart-57f6…-47k97');
    expect(shortName('web')).toBe('web');
    expect(shortName('peekcart-57f6cd6664-47k97')).toHaveLength(20);
  });

  it('colours kubectl STATUS values', () => {
    expect(statusTone('Running')).toBe('ok');
    expect(statusTone('ContainerCreating')).toBe('progress');
    expect(statusTone('Terminating')).toBe('gone');
    expect(statusTone('ImagePullBackOff')).toBe('error');
    expect(statusTone('CrashLoopBackOff')).toBe('error');
    expect(statusTone('Completed')).toBe('done');
  });
});
