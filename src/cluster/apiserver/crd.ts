/**
 * CustomResourceDefinitions: a CRD write adds (or removes) kinds at run time, as
 * k8s.io/apiextensions-apiserver does — the naming controller accepts the names and sets
 * NamesAccepted, the establishing controller sets Established, and from then on the new
 * resource is served (stored, listed, watched) and its instances are validated against the
 * version's openAPIV3Schema. Deleting a CRD deletes its instances (the
 * customresourcecleanup finalizer) and stops serving the kind.
 *
 * Relay participant for the status updates: `apiextensions-controller` (the controllers run
 * inside kube-apiserver upstream: pkg/controller/status/naming_controller.go,
 * pkg/controller/establish/establishing_controller.go).
 */
import type { APIServer } from './apiserver';
import type { KObject } from '../api/types';
import { deepCopy } from '../api/types';
import type { ResourceInfo } from '../api/resources';
import type { FieldError } from '../api/errors';
import { users } from './authentication/user';
import { validateAgainstSchema, type JSONSchemaProps } from './openapi-schema';
import { hasOwn, setOwn } from '../api/safe-object';

const CRD_RESOURCE = 'customresourcedefinitions.apiextensions.k8s.io';

interface CRDVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: object };
}

/** Wires CRD handling into an apiserver. Call once, after construction. */
export function installCRDSupport(api: APIServer): void {
  const schemas = new Map<string, JSONSchemaProps | undefined>(); // "group/version/kind" → schema
  const user = users.system('apiextensions-controller');

  const register = (crd: KObject) => {
    const spec = crd.spec ?? {};
    const names = spec.names ?? {};
    const group: string = spec.group;
    const versions: CRDVersion[] = spec.versions ?? [];
    // remove what an older generation served, then add the served versions
    api.registry.removeGroupResource(group, names.plural);
    for (const [k] of schemas) if (k.startsWith(`${group}/`) && k.endsWith(`/${names.kind}`)) schemas.delete(k);
    const ordered = [...versions].sort((a, b) => Number(!!b.storage) - Number(!!a.storage));
    for (const v of ordered) {
      if (v.served === false) continue;
      const info: ResourceInfo = {
        group,
        version: v.name,
        kind: names.kind,
        resource: names.plural,
        singular: names.singular ?? String(names.kind ?? '').toLowerCase(),
        namespaced: spec.scope !== 'Cluster',
        shortNames: names.shortNames ?? [],
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        subresources: [...(v.subresources?.status ? ['status'] : []), ...(v.subresources?.scale ? ['scale'] : [])],
        categories: names.categories,
        custom: true,
        // apiextensions-apiserver crdHandler: a deprecated version's warning, or its default text
        ...(v.deprecated ? { deprecated: v.deprecationWarning ?? `${group}/${v.name} ${names.kind} is deprecated` } : {}),
      };
      api.registry.add(info);
      schemas.set(`${group}/${v.name}/${names.kind}`, v.schema?.openAPIV3Schema);
    }
  };

  const establish = (name: string) => {
    api.clock.setTimer(api.timings.watchLatencyMs, () => {
      const info = api.registry.forResource('apiextensions.k8s.io', 'customresourcedefinitions')!;
      const cur = api.getObject(CRD_RESOURCE, '', name);
      if (!cur || cur.metadata.deletionTimestamp) return;
      const next = deepCopy(cur);
      const now = api.nowRFC3339();
      next.status = {
        acceptedNames: { ...cur.spec.names, singular: cur.spec.names.singular ?? String(cur.spec.names.kind).toLowerCase() },
        conditions: [
          { type: 'NamesAccepted', status: 'True', lastTransitionTime: now, reason: 'NoConflicts', message: 'no conflicts found' },
          {
            type: 'Established',
            status: 'True',
            lastTransitionTime: now,
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
          },
        ],
        storedVersions: (cur.spec.versions ?? []).filter((v: CRDVersion) => v.storage).map((v: CRDVersion) => v.name),
      };
      try {
        api.update(user, info, '', next, { subresource: 'status', summary: `CRD ${name}: NamesAccepted, Established` });
      } catch {
        // a racing update: the next write re-establishes it
      }
    });
  };

  const cleanup = (crd: KObject) => {
    const group = crd.spec?.group;
    const plural = crd.spec?.names?.plural;
    const gr = `${plural}.${group}`;
    for (const e of api.store.list(gr)) {
      const o = e.obj;
      const info = api.registry.forResource(group, plural);
      if (info) {
        try {
          api.delete(user, info, o.metadata.namespace ?? '', o.metadata.name, {
            summary: `delete ${o.kind} ${o.metadata.name} (CRD ${crd.metadata.name} deleted)`,
          });
        } catch {
          // already gone
        }
      }
    }
    api.registry.removeGroupResource(group, plural);
  };

  api.afterWrite.push((ev) => {
    if (ev.resource !== CRD_RESOURCE) return;
    if (ev.type === 'DELETED') {
      cleanup(ev.obj);
      return;
    }
    if (ev.type === 'ADDED' || JSON.stringify(ev.obj.spec) !== JSON.stringify(ev.prev?.spec)) {
      register(ev.obj);
      establish(ev.obj.metadata.name);
    }
  });

  api.validatingAdmission.push((_verb, info, obj): FieldError[] | void => {
    if (!info.custom) return;
    const schema = schemas.get(`${info.group}/${info.version}/${info.kind}`);
    if (!schema) return;
    const errs: FieldError[] = [];
    const { apiVersion, kind, metadata, ...rest } = obj;
    const props: JSONSchemaProps = { ...schema, properties: { ...schema.properties } };
    delete props.properties!.apiVersion;
    delete props.properties!.kind;
    delete props.properties!.metadata;
    const pruned = validateAgainstSchema(rest, props, '', errs) as Record<string, unknown>;
    // prune in place: unknown fields are dropped before storage
    for (const k of Object.keys(obj)) if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && !hasOwn(pruned, k)) delete obj[k];
    for (const [k, v] of Object.entries(pruned)) setOwn(obj, k, v);
    void apiVersion;
    void kind;
    void metadata;
    return errs;
  });
}
