/**
 * Which resources take an update without a resourceVersion (or with "0") as unconditional:
 * each pkg/registry/<group>/<resource>/strategy.go's `AllowUnconditionalUpdate()`, read for
 * v1.33. The generic store (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
 * `Update`) fills in the latest resourceVersion for those; for the others it answers 422
 * `metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`.
 */
import type { ResourceInfo } from '../../api/resources';
import { groupResource } from '../../api/resources';
import { newInvalid, type StatusError } from '../../api/errors';

/**
 * Group-qualified resources whose strategy answers `false` (every other built-in answers
 * `true`): Leases, CSIDrivers, CSINodes, VolumeAttachments, RuntimeClasses, the admission
 * webhook configurations and policies, CustomResourceDefinitions; custom resources
 * (apiextensions-apiserver's customResourceStrategy) are refused too.
 */
const CONDITIONAL_ONLY = new Set([
  'leases.coordination.k8s.io',
  'csidrivers.storage.k8s.io',
  'csinodes.storage.k8s.io',
  'volumeattachments.storage.k8s.io',
  'runtimeclasses.node.k8s.io',
  'validatingwebhookconfigurations.admissionregistration.k8s.io',
  'mutatingwebhookconfigurations.admissionregistration.k8s.io',
  'validatingadmissionpolicies.admissionregistration.k8s.io',
  'validatingadmissionpolicybindings.admissionregistration.k8s.io',
  'mutatingadmissionpolicies.admissionregistration.k8s.io',
  'mutatingadmissionpolicybindings.admissionregistration.k8s.io',
  'customresourcedefinitions.apiextensions.k8s.io',
  'apiservices.apiregistration.k8s.io',
]);

/** The strategy's AllowUnconditionalUpdate() for a served resource. */
export function allowUnconditionalUpdate(info: ResourceInfo): boolean {
  return !info.custom && !CONDITIONAL_ONLY.has(groupResource(info));
}

/**
 * Whether an update's metadata.resourceVersion asks for no precondition: empty, absent or
 * one that parses to 0 (storage's APIObjectVersioner.ParseResourceVersion: "" → 0).
 */
export function isUnsetResourceVersion(rv: string | undefined): boolean {
  return rv === undefined || rv === '' || /^0+$/.test(rv);
}

/**
 * store.go's 422 for a resource that refuses unconditional updates. Its GroupKind is made of
 * the *resource* (`leases.coordination.k8s.io "x" is invalid: …`, upstream's TODO #18526), and
 * the uint64 0 prints as Go's %#v does: `0x0`.
 */
export function newResourceVersionRequired(info: ResourceInfo, name: string): StatusError {
  return newInvalid(groupResource(info), name, [
    { type: 'Invalid', field: 'metadata.resourceVersion', rawValue: '0x0', detail: 'must be specified for an update' },
  ]);
}
