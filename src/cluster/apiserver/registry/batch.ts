/**
 * batch/v1 strategies: Job (pkg/registry/batch/job/strategy.go: generateSelector,
 * PrepareForCreate; pkg/apis/batch/v1/defaults.go SetDefaults_Job) and CronJob
 * (SetDefaults_CronJob), validation from pkg/apis/batch/validation/validation.go.
 */
import type { FieldError } from '../../api/errors';
import { deepEqual, type KObject } from '../../api/types';
import { labelSelectorMismatch } from '../../api/labels';
import type { Strategy } from './strategy';
import { defaultPodTemplate } from './pod-defaults';
import {
  checkMetaTypes,
  goLabelSelector,
  goStringMap,
  immutable,
  nameIsDNSSubdomain,
  nonNegative,
  validateLabelSelector,
  validateObjectMeta,
} from './validation/meta';
import { checkPodSpecDecode, validatePodTemplateSpec } from './validation/podspec';
import { isValidLabelValue } from '../../api/validation/names';
import { hasOwn } from '../../api/safe-object';

type Obj = Record<string, any>;

/** SetDefaults_Job. */
export function defaultJobSpec(obj: KObject | { spec: Obj; metadata?: Obj }, copyLabels = true): void {
  const s: Obj = (obj.spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {});
  if (s.completions === undefined && s.parallelism === undefined) {
    s.completions = 1;
    s.parallelism = 1;
  }
  if (s.parallelism === undefined) s.parallelism = 1;
  if (s.backoffLimit === undefined) s.backoffLimit = s.backoffLimitPerIndex !== undefined ? 2147483647 : 6;
  const tl = s.template?.metadata?.labels;
  if (copyLabels && obj.metadata && tl && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...tl };
  if (!s.completionMode) s.completionMode = 'NonIndexed';
  if (s.suspend === undefined) s.suspend = false;
  if (s.manualSelector === undefined) s.manualSelector = false;
  for (const r of s.podFailurePolicy?.rules ?? []) for (const p of r.onPodConditions ?? []) if (!p.status) p.status = 'True';
  if (!s.podReplacementPolicy) s.podReplacementPolicy = s.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  defaultPodTemplate((s.template = s.template ?? {}));
}

/** generateSelector: controller-uid + job-name labels and the selector on them. */
export function generateJobSelector(obj: KObject): void {
  const s: Obj = obj.spec;
  const tpl = (s.template = s.template ?? {});
  tpl.metadata = tpl.metadata ?? {};
  const labels: Record<string, string> = (tpl.metadata.labels = tpl.metadata.labels ?? {});
  for (const k of ['job-name', 'batch.kubernetes.io/job-name']) if (!hasOwn(labels, k)) labels[k] = obj.metadata.name;
  for (const k of ['controller-uid', 'batch.kubernetes.io/controller-uid']) if (!hasOwn(labels, k)) labels[k] = obj.metadata.uid ?? '';
  s.selector = s.selector ?? {};
  s.selector.matchLabels = s.selector.matchLabels ?? {};
  if (!('batch.kubernetes.io/controller-uid' in s.selector.matchLabels))
    s.selector.matchLabels['batch.kubernetes.io/controller-uid'] = obj.metadata.uid ?? '';
}

function restartPolicyOnFailureOrNever(tpl: Obj | undefined, path: string): FieldError[] {
  const rp = tpl?.spec?.restartPolicy;
  return rp !== 'OnFailure' && rp !== 'Never'
    ? [{ type: 'NotSupported', field: `${path}.spec.restartPolicy`, value: rp ?? '', supported: ['OnFailure', 'Never'] }]
    : [];
}

/** ValidateJobSpec (essentials) for a Job or a CronJob's jobTemplate. */
export function validateJobSpec(s: Obj, path: string, isTemplate: boolean): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(s.parallelism, `${path}.parallelism`), ...nonNegative(s.completions, `${path}.completions`));
  if (typeof s.activeDeadlineSeconds === 'number' && s.activeDeadlineSeconds <= 0) {
    errs.push({
      type: 'Invalid',
      field: `${path}.activeDeadlineSeconds`,
      value: s.activeDeadlineSeconds,
      detail: 'must be greater than or equal to 1',
    });
  }
  errs.push(
    ...nonNegative(s.backoffLimit, `${path}.backoffLimit`),
    ...nonNegative(s.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`),
  );
  if (s.completionMode && !['NonIndexed', 'Indexed'].includes(s.completionMode))
    errs.push({ type: 'NotSupported', field: `${path}.completionMode`, value: s.completionMode, supported: ['NonIndexed', 'Indexed'] });
  if (s.completionMode === 'Indexed' && s.completions === undefined)
    errs.push({ type: 'Required', field: `${path}.completions`, detail: 'when completion mode is Indexed' });
  if (!isTemplate) {
    if (!s.selector) errs.push({ type: 'Required', field: `${path}.selector` });
    else {
      errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
      if (labelSelectorMismatch(s.selector, s.template?.metadata?.labels)) {
        errs.push({
          type: 'Invalid',
          field: `${path}.template.metadata.labels`,
          value: s.template?.metadata?.labels,
          rawValue: goStringMap(s.template?.metadata?.labels),
          detail: '`selector` does not match template `labels`',
        });
      }
    }
  } else if (s.selector) {
    errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
  }
  errs.push(...validatePodTemplateSpec(s.template, `${path}.template`));
  errs.push(...restartPolicyOnFailureOrNever(s.template, `${path}.template`));
  return errs;
}

const jobStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    checkPodSpecDecode(obj, obj.spec?.template?.spec);
    defaultJobSpec(obj);
    if (!obj.spec.manualSelector) generateJobSelector(obj);
    obj.status = {};
  },
  prepareForUpdate(obj) {
    checkMetaTypes(obj);
    checkPodSpecDecode(obj, obj.spec?.template?.spec);
  },
  defaults: (obj) => defaultJobSpec(obj),
  validate(obj) {
    const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
    if (!obj.spec?.manualSelector) {
      for (const m of isValidLabelValue(obj.metadata.name))
        errs.push({ type: 'Invalid', field: 'metadata.name', value: obj.metadata.name, detail: m });
    }
    return [...errs, ...validateJobSpec(obj.spec ?? {}, 'spec', false)];
  },
  validateUpdate(obj, old) {
    const errs = [...validateObjectMeta(obj, true, nameIsDNSSubdomain), ...validateJobSpec(obj.spec ?? {}, 'spec', false)];
    errs.push(
      ...immutable(
        !deepEqual(obj.spec?.selector, old.spec?.selector),
        'spec.selector',
        obj.spec?.selector,
        goLabelSelector(obj.spec?.selector),
      ),
    );
    errs.push(
      ...immutable(
        obj.spec?.completions !== old.spec?.completions && obj.spec?.completionMode !== 'Indexed',
        'spec.completions',
        obj.spec?.completions,
      ),
    );
    errs.push(...immutable(obj.spec?.completionMode !== old.spec?.completionMode, 'spec.completionMode', obj.spec?.completionMode));
    if (!deepEqual(obj.spec?.template, old.spec?.template) && !(old.spec?.suspend && !old.status?.startTime)) {
      errs.push({
        type: 'Invalid',
        field: 'spec.template',
        value: obj.spec?.template,
        rawValue: 'core.PodTemplateSpec{…}',
        detail: 'field is immutable',
      });
    }
    return errs;
  },
};

/** SetDefaults_CronJob (+ the pod template defaults of its jobTemplate). */
export function defaultCronJob(obj: KObject): void {
  const s: Obj = (obj.spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {});
  if (!s.concurrencyPolicy) s.concurrencyPolicy = 'Allow';
  if (s.suspend === undefined) s.suspend = false;
  if (s.successfulJobsHistoryLimit === undefined) s.successfulJobsHistoryLimit = 3;
  if (s.failedJobsHistoryLimit === undefined) s.failedJobsHistoryLimit = 1;
  s.jobTemplate = s.jobTemplate ?? {};
  if (s.jobTemplate.metadata && !('creationTimestamp' in s.jobTemplate.metadata)) s.jobTemplate.metadata.creationTimestamp = null;
  else if (!s.jobTemplate.metadata) s.jobTemplate.metadata = { creationTimestamp: null };
  s.jobTemplate.spec = s.jobTemplate.spec ?? {};
  defaultPodTemplate((s.jobTemplate.spec.template = s.jobTemplate.spec.template ?? {}));
}

const CRON_FIELD = /^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?(,(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?)*$/;

function validateSchedule(s: string | undefined): FieldError[] {
  if (!s) return [{ type: 'Required', field: 'spec.schedule' }];
  if (/^@(yearly|annually|monthly|weekly|daily|midnight|hourly)$/.test(s) || s.startsWith('@every ')) return [];
  if (/TZ=|CRON_TZ=/.test(s))
    return [
      { type: 'Invalid', field: 'spec.schedule', value: s, detail: 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead' },
    ];
  const fields = s.trim().split(/\s+/);
  if (fields.length !== 5)
    return [{ type: 'Invalid', field: 'spec.schedule', value: s, detail: `expected exactly 5 fields, found ${fields.length}: ${s}` }];
  for (const f of fields)
    if (!CRON_FIELD.test(f))
      return [
        {
          type: 'Invalid',
          field: 'spec.schedule',
          value: s,
          detail: `failed to parse int from ${f}: strconv.Atoi: parsing "${f}": invalid syntax`,
        },
      ];
  return [];
}

const cronJobStrategy: Strategy = {
  hasStatus: true,
  prepareForCreate(obj) {
    checkMetaTypes(obj);
    checkPodSpecDecode(obj, obj.spec?.jobTemplate?.spec?.template?.spec);
    obj.status = {};
  },
  prepareForUpdate: checkMetaTypes,
  defaults: defaultCronJob,
  validate(obj) {
    const errs = validateObjectMeta(obj, true, nameIsDNSSubdomain);
    if (obj.metadata.name && obj.metadata.name.length > 52)
      errs.push({ type: 'Invalid', field: 'metadata.name', value: obj.metadata.name, detail: 'must be no more than 52 characters' });
    const s: Obj = obj.spec ?? {};
    errs.push(...validateSchedule(s.schedule));
    errs.push(...nonNegative(s.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
    if (!['Allow', 'Forbid', 'Replace'].includes(s.concurrencyPolicy))
      errs.push({
        type: 'NotSupported',
        field: 'spec.concurrencyPolicy',
        value: s.concurrencyPolicy ?? '',
        supported: ['Allow', 'Forbid', 'Replace'],
      });
    errs.push(...validateJobSpec(s.jobTemplate?.spec ?? {}, 'spec.jobTemplate.spec', true));
    errs.push(
      ...nonNegative(s.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'),
      ...nonNegative(s.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'),
    );
    return errs;
  },
  validateUpdate(obj, _old, ctx) {
    return cronJobStrategy.validate!(obj, ctx);
  },
};

/** batch/v1 strategies. */
export const batchStrategies: Record<string, Strategy> = {
  'jobs.batch': jobStrategy,
  'cronjobs.batch': cronJobStrategy,
};
