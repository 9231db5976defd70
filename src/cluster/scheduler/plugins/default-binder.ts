/**
 * DefaultBinder: POSTs a Binding (the pods/binding subresource) for the chosen node.
 *
 * Mirrors pkg/scheduler/framework/plugins/defaultbinder/default_binder.go.
 */
import type { Client } from '../../client/clientset';
import { StatusError } from '../../api/errors';
import type { PodInfo } from '../node-info';
import { newStatus, SUCCESS, type BindPlugin, type CycleState, type Status } from '../types';

/** The DefaultBinder plugin. */
export class DefaultBinder implements BindPlugin {
  readonly name = 'DefaultBinder';
  constructor(private readonly client: Client) {}

  bind(_s: CycleState, pod: PodInfo, nodeName: string): Status {
    const ns = pod.pod.metadata.namespace ?? 'default';
    try {
      this.client.bind(ns, pod.pod.metadata.name, nodeName, `bind Pod ${ns}/${pod.pod.metadata.name} to ${nodeName}`);
      return SUCCESS;
    } catch (err) {
      return newStatus('Error', err instanceof StatusError ? err.message : String(err));
    }
  }
}
