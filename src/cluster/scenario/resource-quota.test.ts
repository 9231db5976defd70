/**
 * Issue 16: a ResourceQuota caps a namespace. The resourcequota controller fills status.hard
 * and status.used (what `kubectl describe quota` prints as Used), the ResourceQuota admission
 * plugin refuses what would exceed it with upstream's 403 texts, and scaling down frees it.
 * Played from src/scenarios/resource-quota.scenario.yaml.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseScenario } from './scenario';
import { runScenario } from './runner';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, '../../scenarios/resource-quota.scenario.yaml');

describe('resource-quota scenario', () => {
  const sc = parseScenario(parse(readFileSync(file, 'utf8')));
  const result = runScenario(sc, { readFile: () => '' });
  const out = (i: number) => `${result.steps[i].output ?? ''}${result.steps[i].error ?? ''}`;

  it('the Deployment gets the three Pods the quota allows; describe shows Used against Hard', () => {
    expect(out(5)).toBe(`Name:          compute
Namespace:     team
Resource       Used   Hard
--------       ----   ----
limits.memory  384Mi  1Gi
pods           3      3
requests.cpu   600m   1
services       0      1
`);
    expect(out(6)).toBe('NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/5     3            3           40s\n');
    const snap = result.snapshots.find((s) => s.name === 'capped')!;
    expect(snap.objects.filter((o) => o.kind === 'Pod' && o.metadata.namespace === 'team')).toHaveLength(3);
  });

  it('the ReplicaSet records FailedCreate with the exceeded quota text', () => {
    const failed = result.final.events.filter((e) => e.reason === 'FailedCreate');
    expect(failed.length).toBeGreaterThan(0);
    for (const e of failed) {
      expect(e.type).toBe('Warning');
      expect(e.message.replace(/web-[a-z0-9]+-[a-z0-9]{5}/, 'POD')).toMatch(
        /^(\(combined from similar events\): )?Error creating: pods "POD" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=3, limited: pods=3$/,
      );
    }
  });

  it('a Pod without requests and limits, and a second Service, are refused with 403', () => {
    expect(out(7)).toBe(
      'Error from server (Forbidden): pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: bare; requests.cpu for: bare\n',
    );
    expect(out(8)).toBe('service/web created\n');
    expect(out(9)).toBe(
      'Error from server (Forbidden): services "second" is forbidden: exceeded quota: compute, requested: services=1, used: services=1, limited: services=1\n',
    );
  });

  it('scaling down frees the quota', () => {
    expect(out(12)).toBe(`Name:          compute
Namespace:     team
Resource       Used   Hard
--------       ----   ----
limits.memory  256Mi  1Gi
pods           2      3
requests.cpu   400m   1
services       1      1
`);
  });
});
