/**
 * The review APIs kube-apiserver answers without storing anything:
 * authorization.k8s.io/v1 SelfSubjectAccessReview, SubjectAccessReview,
 * LocalSubjectAccessReview (pkg/registry/authorization/*accessreview/rest.go: the spec's
 * attributes through the authorizer chain → status.allowed / denied / reason), the
 * SelfSubjectRulesReview (selfsubjectrulesreview/rest.go: the chain's RulesFor), and
 * authentication.k8s.io/v1 SelfSubjectReview (pkg/registry/authentication/selfsubjectreview:
 * the requester's user info — what `kubectl auth whoami` prints).
 */
import type { KObject } from '../../api/types';
import { newBadRequest, newInvalid, type FieldError } from '../../api/errors';
import type { AuthorizerChain } from './authorizer';
import type { Attributes } from './rbac';
import { parseFieldSelector } from '../fields';

/** The review resources, by `resource.group`, with their kind. */
export const REVIEW_RESOURCES: ReadonlyMap<
  string,
  { group: string; version: string; kind: string; resource: string; namespaced: boolean }
> = new Map([
  [
    'selfsubjectaccessreviews.authorization.k8s.io',
    {
      group: 'authorization.k8s.io',
      version: 'v1',
      kind: 'SelfSubjectAccessReview',
      resource: 'selfsubjectaccessreviews',
      namespaced: false,
    },
  ],
  [
    'selfsubjectrulesreviews.authorization.k8s.io',
    {
      group: 'authorization.k8s.io',
      version: 'v1',
      kind: 'SelfSubjectRulesReview',
      resource: 'selfsubjectrulesreviews',
      namespaced: false,
    },
  ],
  [
    'subjectaccessreviews.authorization.k8s.io',
    { group: 'authorization.k8s.io', version: 'v1', kind: 'SubjectAccessReview', resource: 'subjectaccessreviews', namespaced: false },
  ],
  [
    'localsubjectaccessreviews.authorization.k8s.io',
    {
      group: 'authorization.k8s.io',
      version: 'v1',
      kind: 'LocalSubjectAccessReview',
      resource: 'localsubjectaccessreviews',
      namespaced: true,
    },
  ],
  [
    'selfsubjectreviews.authentication.k8s.io',
    { group: 'authentication.k8s.io', version: 'v1', kind: 'SelfSubjectReview', resource: 'selfsubjectreviews', namespaced: false },
  ],
]);

interface ReviewUser {
  name: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesFrom(user: ReviewUser, spec: KObject['spec']): Attributes & SelectorAttributes {
  const ra = spec?.resourceAttributes;
  if (ra) {
    return {
      user,
      verb: ra.verb ?? '',
      resourceRequest: true,
      apiGroup: ra.group ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      namespace: ra.namespace ?? '',
      name: ra.name ?? '',
      path: '',
      ...fieldSelectorFrom(ra.fieldSelector),
    };
  }
  const nr = spec?.nonResourceAttributes ?? {};
  return {
    user,
    verb: nr.verb ?? '',
    resourceRequest: false,
    apiGroup: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: nr.path ?? '',
  };
}

type SelectorAttributes = Pick<Attributes, 'fieldSelector'> & { fieldSelectorError?: 'ignored' | 'partially ignored' };

/**
 * ResourceAttributesFrom's field selector (AuthorizeWithSelectors, beta and on in v1.33): a
 * `rawSelector` parsed as a request's (fields.ParseSelector), or `requirements`
 * (fieldSelectorAsSelector: In / NotIn of exactly one value; anything else is dropped and
 * reported as an evaluation error). Note that a selector never sets the review's name: a
 * review of `list nodes` with `metadata.name=node-1` has no name, unlike the list request.
 */
function fieldSelectorFrom(
  fs: { rawSelector?: string; requirements?: { key?: string; operator?: string; values?: string[] }[] } | undefined,
): SelectorAttributes {
  if (!fs) return {};
  let out: SelectorAttributes = {};
  if (fs.rawSelector) {
    try {
      out = { fieldSelector: parseFieldSelector(fs.rawSelector) };
    } catch {
      out = { fieldSelectorError: 'ignored' };
    }
  }
  if (fs.requirements?.length) {
    const reqs: NonNullable<Attributes['fieldSelector']> = [];
    let bad = false;
    for (const r of fs.requirements) {
      const values = r.values ?? [];
      if (values.length !== 1 || (r.operator !== 'In' && r.operator !== 'NotIn')) bad = true;
      else reqs.push({ field: r.key ?? '', op: r.operator === 'In' ? '=' : '!=', value: values[0] });
    }
    out = {
      ...(reqs.length ? { fieldSelector: reqs } : {}),
      ...(bad ? { fieldSelectorError: reqs.length ? 'partially ignored' : 'ignored' } : {}),
    };
  }
  return out;
}

/**
 * validation.go validateFieldSelectorAttributes (with metav1validation.ValidateFieldSelectorRequirement,
 * AllowUnknownOperatorInRequirement): rawSelector or requirements, not both, not neither; each
 * requirement names a key, In/NotIn carry values, Exists/DoesNotExist none.
 */
function fieldSelectorErrors(ra: KObject['spec']): FieldError[] {
  const fs = ra?.fieldSelector;
  if (!fs || typeof fs !== 'object') return [];
  const path = 'spec.resourceAttributes.fieldSelector';
  const reqs: { key?: string; operator?: string; values?: string[] }[] = Array.isArray(fs.requirements) ? fs.requirements : [];
  const errs: FieldError[] = [];
  if (fs.rawSelector && reqs.length)
    errs.push({
      type: 'Invalid',
      field: `${path}.rawSelector`,
      value: fs.rawSelector,
      detail: 'may not specified at the same time as requirements',
    });
  if (!fs.rawSelector && !reqs.length)
    errs.push({
      type: 'Required',
      field: `${path}.requirements`,
      detail: `when ${path} is specified, requirements or rawSelector is required`,
    });
  reqs.forEach((r, i) => {
    const at = `${path}.requirements[${i}]`;
    if (!r?.key) errs.push({ type: 'Required', field: `${at}.key`, detail: 'must be specified' });
    const n = Array.isArray(r?.values) ? r.values.length : 0;
    if ((r?.operator === 'In' || r?.operator === 'NotIn') && n === 0)
      errs.push({ type: 'Required', field: `${at}.values`, detail: "must be specified when `operator` is 'In' or 'NotIn'" });
    if ((r?.operator === 'Exists' || r?.operator === 'DoesNotExist') && n > 0)
      errs.push({ type: 'Forbidden', field: `${at}.values`, detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
  });
  return errs;
}

/** The status of an access review (authorizationutil: allowed / denied / reason / evaluationError, BuildEvaluationError). */
function accessStatus(chain: AuthorizerChain, a: Attributes & SelectorAttributes): KObject['status'] {
  const d = chain.authorize(a);
  const status: Record<string, unknown> = { allowed: d.decision === 'allow' };
  if (d.decision === 'deny') status.denied = true;
  if (d.reason) status.reason = d.reason;
  if (a.fieldSelectorError) status.evaluationError = `spec.resourceAttributes.fieldSelector ${a.fieldSelectorError} due to parse error`;
  return status;
}

/**
 * Answers a review create for `requester`. The returned object is the review with its
 * status filled, as the REST storage returns it (never stored).
 * @throws StatusError 400 (wrong kind, LocalSubjectAccessReview namespace mismatch), 422 (spec invalid)
 */
export function answerReview(chain: AuthorizerChain | null, requester: ReviewUser, key: string, namespace: string, body: KObject): KObject {
  const info = REVIEW_RESOURCES.get(key)!;
  const out: KObject = {
    ...body,
    apiVersion: `${info.group}/${info.version}`,
    kind: info.kind,
    metadata: { ...(body.metadata ?? {}), creationTimestamp: null } as unknown as KObject['metadata'],
  };
  delete (out.metadata as Record<string, unknown>).managedFields;
  const spec = body.spec ?? {};
  switch (info.kind) {
    case 'SelfSubjectReview': {
      const userInfo: Record<string, unknown> = { username: requester.name };
      if (requester.uid) userInfo.uid = requester.uid;
      if (requester.groups?.length) userInfo.groups = [...requester.groups];
      if (requester.extra && Object.keys(requester.extra).length) userInfo.extra = requester.extra;
      return {
        apiVersion: out.apiVersion,
        kind: out.kind,
        metadata: { creationTimestamp: null } as unknown as KObject['metadata'],
        status: { userInfo },
      };
    }
    case 'SelfSubjectRulesReview': {
      const ns = spec.namespace ?? '';
      if (!chain)
        return {
          ...out,
          status: {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          },
        };
      const { rules, errors, incomplete } = chain.rulesFor(requester, ns);
      const resourceRules = rules
        .filter((r) => !r.nonResourceURLs?.length)
        .map((r) => ({
          verbs: r.verbs,
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
        }));
      const nonResourceRules = rules
        .filter((r) => r.nonResourceURLs?.length)
        .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs }));
      const status: Record<string, unknown> = { resourceRules, nonResourceRules, incomplete };
      if (errors.length) status.evaluationError = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
      return { ...out, status };
    }
    case 'SelfSubjectAccessReview': {
      if (!spec.resourceAttributes && !spec.nonResourceAttributes)
        throw newInvalid('SelfSubjectAccessReview.authorization.k8s.io', '', [
          {
            type: 'Required',
            field: 'spec.resourceAttributes',
            detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
          },
        ]);
      const selectorErrs = fieldSelectorErrors(spec.resourceAttributes);
      if (selectorErrs.length) throw newInvalid('SelfSubjectAccessReview.authorization.k8s.io', '', selectorErrs);
      if (!chain) return { ...out, status: { allowed: true } };
      return { ...out, status: accessStatus(chain, attributesFrom(requester, spec)) };
    }
    default: {
      // SubjectAccessReview / LocalSubjectAccessReview: the spec names the user
      if (info.kind === 'LocalSubjectAccessReview' && spec.resourceAttributes?.namespace !== namespace) {
        throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
      }
      if (!spec.user && !(spec.groups ?? []).length)
        throw newInvalid(`${info.kind}.authorization.k8s.io`, '', [
          { type: 'Invalid', field: 'spec.user', value: '', detail: 'at least one of user or group must be specified' },
        ]);
      const selectorErrs = fieldSelectorErrors(spec.resourceAttributes);
      if (selectorErrs.length) throw newInvalid(`${info.kind}.authorization.k8s.io`, '', selectorErrs);
      if (!chain) return { ...out, status: { allowed: true } };
      const subject: ReviewUser = { name: spec.user ?? '', groups: spec.groups ?? [], uid: spec.uid, extra: spec.extra };
      return { ...out, status: accessStatus(chain, attributesFrom(subject, spec)) };
    }
  }
}
