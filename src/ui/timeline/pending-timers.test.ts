import { describe, expect, it } from 'vitest';
import { pendingTimers, timerReason } from './pending-timers';

describe('timerReason (engine timer labels)', () => {
  it.each([
    ['taint eviction of default/peekcart-7d4b9c-x2x9z at 300s', 'eviction'],
    ['back-off 10s restarting failed container app in pod default/web-1', 'backoff'],
    ['back-off pulling image nginx:1.161 for default/web-1', 'backoff'],
    ['kube-scheduler: back-off of default/web-1 ends', 'backoff'],
    ['job default/pi pod failure back-off', 'backoff'],
    ['hpa default/web: scale-down stabilization window ends at 00:07:15', 'hpa-stabilization'],
    ['job default/pi activeDeadlineSeconds runs out', 'job-deadline'],
    ['node-2: node-monitor-grace-period runs out', 'grace-period'],
    ['default/web: progressDeadlineSeconds check', 'progress-deadline'],
    ['Readiness probe of default/web-1/app', 'probe'],
    ['cronjob default/backup-daily: next run at 00:00:00', 'cronjob'],
    ['load balancer for Service default/web', 'other'],
  ])('%s → %s', (label, reason) => expect(timerReason(label)).toBe(reason));
});

describe('pendingTimers', () => {
  const now = 1_000_000;
  it('groups by reason (earliest of each, with a count), drops past ones, earliest first', () => {
    expect(
      pendingTimers(
        [
          { at: now + 250_500, label: 'taint eviction of default/a at 300s', object: 'Pod/default/a' },
          { at: now + 40_000, label: 'node-2: node-monitor-grace-period runs out', object: 'Node/node-2' },
          { at: now + 249_000, label: 'taint eviction of default/b at 300s', object: 'Pod/default/b' },
          { at: now, label: 'taint eviction of default/c at 300s' },
          { at: now - 5, label: 'kube-scheduler: back-off of default/d ends' },
        ],
        now,
      ),
    ).toEqual([
      {
        reason: 'grace-period',
        label: 'node-2: node-monitor-grace-period runs out',
        object: 'Node/node-2',
        at: now + 40_000,
        secondsLeft: 40,
        count: 1,
      },
      {
        reason: 'eviction',
        label: 'taint eviction of default/b at 300s',
        object: 'Pod/default/b',
        at: now + 249_000,
        secondsLeft: 249,
        count: 2,
      },
    ]);
  });

  it('rounds seconds left up', () => {
    expect(pendingTimers([{ at: now + 1, label: 'x' }], now)[0].secondsLeft).toBe(1);
  });
});
