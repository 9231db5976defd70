/**
 * Any parsed YAML value in any field: parseScenario returns a scenario or throws a
 * ScenarioError naming where, never another error (a TypeError would be a stack trace in
 * `npm run scenario`). fast-check, seeded.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseScenario } from './scenario';
import { ScenarioError } from './fields';

const STEP_KINDS = [
  'apply',
  'applyFile',
  'applyKustomize',
  'kubectl',
  'advance',
  'settle',
  'killNode',
  'restoreNode',
  'removeNode',
  'addNode',
  'deletePod',
  'snapshot',
  'note',
  'dockerRun',
  'request',
  'setLoad',
  'other',
];
const FIELDS = [
  'name',
  'labels',
  'taints',
  'capacity',
  'controlPlane',
  'key',
  'value',
  'effect',
  'for',
  'quiet',
  'nodeOfPod',
  'selector',
  'index',
  'namespace',
  'node',
  'image',
  'restart',
  'url',
  'from',
  'pod',
  'count',
  'workload',
  'cpu',
  'en',
  'ko',
  '__proto__',
  'constructor',
];

// YAML-shaped values: what yaml's toJS can produce
const leaf = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('node-1', 'control-plane', '5m', '2', '-1', 'app=web', 'external', '1e3', ''),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('v'), { maxKeys: 4 }),
  ),
})).v;
/** Each step's own fields, so that generated mappings often get past the unknown-field check. */
const KIND_FIELDS: Record<string, string[]> = {
  settle: ['for', 'quiet'],
  killNode: ['nodeOfPod'],
  addNode: ['name', 'labels', 'taints', 'capacity', 'controlPlane'],
  deletePod: ['namespace', 'name', 'selector', 'index'],
  note: ['en', 'ko'],
  dockerRun: ['node', 'image', 'name', 'restart'],
  request: ['from', 'url', 'count'],
  setLoad: ['namespace', 'workload', 'cpu'],
};
const nested: fc.Arbitrary<unknown> = fc.oneof(
  value,
  fc.dictionary(fc.constantFrom('selector', 'index', 'namespace', 'pod', 'key', 'effect', 'cpu', 'memory'), value, { maxKeys: 3 }),
  fc.array(fc.dictionary(fc.constantFrom('key', 'value', 'effect'), value), { maxLength: 2 }),
);
const ownStep = fc
  .constantFrom(...Object.keys(KIND_FIELDS))
  .chain((kind) => fc.dictionary(fc.constantFrom(...KIND_FIELDS[kind]), nested, { maxKeys: 4 }).map((v) => ({ [kind]: v })));
const step = fc.oneof(ownStep, ownStep, fc.dictionary(fc.constantFrom(...STEP_KINDS), value, { minKeys: 1, maxKeys: 2 }), value);
const doc = fc.record(
  {
    name: value,
    cluster: fc.oneof(
      value,
      fc.record(
        {
          seed: value,
          nodes: fc.oneof(
            value,
            fc.array(
              fc.oneof(
                value,
                ownStep.map((o) => Object.values(o)[0]),
              ),
              { maxLength: 3 },
            ),
          ),
          images: value,
        },
        { requiredKeys: [] },
      ),
    ),
    steps: fc.oneof(value, fc.array(step, { maxLength: 6 })),
  },
  { requiredKeys: [] },
);

describe('parseScenario over arbitrary YAML values', () => {
  it('returns or throws ScenarioError, nothing else', () => {
    fc.assert(
      fc.property(doc, (d) => {
        try {
          parseScenario(d);
        } catch (e) {
          if (!(e instanceof ScenarioError)) throw e;
          expect(e.message).toMatch(/^(scenario|name|title|cluster|steps)[^:]*: /);
        }
      }),
      { seed: 21, numRuns: 3000 },
    );
  });
});
