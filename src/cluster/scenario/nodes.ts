/**
 * Node entries of a scenario (`cluster.nodes` list items and `addNode` steps), validated
 * before anything runs as kube-apiserver would validate the Node the kubelet registers
 * (pkg/apis/core/validation/validation.go ValidateNode: ObjectMeta with NameIsDNSSubdomain,
 * label keys and values, validateNodeTaints, ValidateNodeResources), and the capacity
 * texts as resource quantities (apimachinery resource.ParseQuantity). Without this a bad
 * name made the kubelet's registration fail silently and a bad quantity crashed it.
 */
import { newInvalid, type FieldError } from '../api/errors';
import { parseQuantity, quantityMilliValue, QUANTITY_FORMAT_ERROR } from '../api/quantity';
import type { NodeConfig } from '../kubelet/kubelet';
import { validateTaints } from '../apiserver/registry/core';
import { nameIsDNSSubdomain, validateObjectMeta } from '../apiserver/registry/validation/meta';
import { isQualifiedName } from '../api/validation/names';
import { ScenarioError, checkFields, isObj } from './fields';

const NODE_FIELDS = ['name', 'labels', 'taints', 'capacity', 'controlPlane'];
const TAINT_FIELDS = ['key', 'value', 'effect'];

/** helper.IsIntegerResourceName for the resources a node reports. */
const INTEGER_RESOURCES = new Set(['pods']);

/** A label, taint or capacity value as YAML gave it: strings, numbers and booleans only. */
function scalar(v: unknown, where: string, what: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ScenarioError(`${where}: ${what} must be a string (got ${Array.isArray(v) ? 'a list' : 'a mapping'})`);
}

function stringMap(v: unknown, where: string, what: string): Record<string, string> {
  if (!isObj(v)) throw new ScenarioError(`${where}: ${what} must be a mapping`);
  // fromEntries defines own properties, so a "__proto__" key stays a key (and fails validation)
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scalar(x, where, `${what}.${k}`)]));
}

/**
 * Turns one node entry into a NodeConfig, or throws ScenarioError naming `where` and the
 * field: the kube-apiserver message for the Node (`Node "Node_1" is invalid: metadata.name:
 * Invalid value: …`), or `capacity.cpu: quantities must match the regular expression …`.
 */
export function nodeConfig(v: unknown, where: string): NodeConfig {
  if (!isObj(v)) throw new ScenarioError(`${where}: a node must be a mapping with at least a name, e.g. {name: node-4}`);
  checkFields(v, where, NODE_FIELDS);
  if (typeof v.name !== 'string' || v.name === '') throw new ScenarioError(`${where}: name must be a non-empty string`);
  const cfg: NodeConfig = { name: v.name };
  if (v.labels !== undefined) cfg.labels = stringMap(v.labels, where, 'labels');
  if (v.taints !== undefined) {
    if (!Array.isArray(v.taints)) throw new ScenarioError(`${where}: taints must be a list`);
    cfg.taints = v.taints.map((t, i) => {
      const tw = `${where}.taints[${i}]`;
      if (!isObj(t)) throw new ScenarioError(`${tw}: must be a mapping {key, value?, effect}`);
      checkFields(t, tw, TAINT_FIELDS);
      return {
        key: scalar(t.key, tw, 'key'),
        ...(t.value === undefined ? {} : { value: scalar(t.value, tw, 'value') }),
        effect: scalar(t.effect, tw, 'effect'),
      };
    });
  }
  if (v.capacity !== undefined) {
    const cap = stringMap(v.capacity, where, 'capacity');
    for (const [k, q] of Object.entries(cap)) {
      try {
        parseQuantity(q);
      } catch {
        throw new ScenarioError(`${where}: capacity.${k}: ${QUANTITY_FORMAT_ERROR} (got ${JSON.stringify(q)})`);
      }
    }
    cfg.capacity = cap;
  }
  if (v.controlPlane !== undefined) {
    if (typeof v.controlPlane !== 'boolean') throw new ScenarioError(`${where}: controlPlane must be true or false`);
    cfg.controlPlane = v.controlPlane;
  }
  const errs = validateNodeConfig(cfg);
  if (errs.length) throw new ScenarioError(`${where}: ${newInvalid('Node', cfg.name, errs).message}`);
  return cfg;
}

/**
 * ValidateNode over the Node a kubelet with this config would register: metadata (name,
 * labels), spec.taints, status.capacity (ValidateResourceQuantityValue: resource names are
 * qualified names, quantities non-negative, integer resources whole).
 */
export function validateNodeConfig(cfg: NodeConfig): FieldError[] {
  const obj = { apiVersion: 'v1', kind: 'Node', metadata: { name: cfg.name, labels: cfg.labels }, spec: {} };
  const errs = [...validateObjectMeta(obj, false, nameIsDNSSubdomain), ...validateTaints(cfg.taints, 'spec.taints')];
  for (const [k, q] of Object.entries(cfg.capacity ?? {})) {
    const path = `status.capacity.${k}`;
    for (const m of isQualifiedName(k)) errs.push({ type: 'Invalid', field: path, value: k, detail: m });
    const parsed = parseQuantity(q);
    if (parsed.negative) errs.push({ type: 'Invalid', field: path, value: q, detail: 'must be greater than or equal to 0' });
    else if (INTEGER_RESOURCES.has(k) && quantityMilliValue(parsed) % 1000 !== 0)
      errs.push({ type: 'Invalid', field: path, value: q, detail: 'must be an integer' });
  }
  return errs;
}
