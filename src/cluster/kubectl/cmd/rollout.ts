/**
 * `kubectl rollout status|history|undo|restart|pause|resume`, as
 * staging/src/k8s.io/kubectl/pkg/cmd/rollout/*.go and polymorphichelpers
 * (rollout_status.go status viewers, history.go, rollback.go DeploymentRollbacker,
 * objectpauser.go, objectresumer.go, objectrestarter.go). `status` does not block: it prints
 * the line the status viewer gives for the current state.
 */
import { deepCopy, deepEqual, type KObject } from '../../api/types';
import {
  KubectlError,
  fail,
  resolveTargets,
  seeHelp,
  stderrOf,
  tryStatus,
  typeName,
  type Ctx,
  type FlagSpec,
  type KubectlResult,
  type Target,
} from './util';
import { objectsOf, printed } from './mutate';
import { formatLabelSelector } from '../../api/labels';
import { describePodTemplate } from './describe-pod';
import { controlledHistory, controllerRollbackTarget, printControllerHistory } from './rollout-history';
import { getOwn, setOwn } from '../../api/safe-object';

/** Flags of `kubectl rollout …`. */
export const ROLLOUT_FLAGS: FlagSpec = {
  watch: { bool: true, short: 'w' },
  revision: {},
  timeout: {},
  'to-revision': {},
  selector: { short: 'l' },
  output: { short: 'o' },
  filename: { short: 'f' },
  'dry-run': {},
  'field-manager': {},
};

const REVISION = 'deployment.kubernetes.io/revision';
const SKIP_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/**
 * The ReplicaSets a Deployment controls; `visible`: the LIST by the Deployment's selector is
 * drawn in the relay, as rollback.go's deploymentutil.GetAllReplicaSets sends it.
 */
export function ownedReplicaSets(ctx: Ctx, d: KObject, visible = false): KObject[] {
  return ctx.client
    .resource('apps', 'replicasets')
    .list(d.metadata.namespace, visible ? { labelSelector: formatLabelSelector(d.spec?.selector) } : { quiet: true })
    .items.filter((rs) => (rs.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === d.metadata.uid));
}

const rev = (o: KObject): number => Number(o.metadata.annotations?.[REVISION] ?? NaN);

/** DeploymentStatusViewer / DaemonSetStatusViewer / StatefulSetStatusViewer. */
export function rolloutStatusLine(o: KObject): { line: string; done: boolean; error?: string } {
  const st = o.status ?? {};
  const name = o.metadata.name;
  const observed = (o.metadata.generation ?? 0) <= (st.observedGeneration ?? 0);
  switch (o.kind) {
    case 'Deployment': {
      if (!observed) return { line: 'Waiting for deployment spec update to be observed...\n', done: false };
      const prog = (st.conditions ?? []).find((c: { type: string }) => c.type === 'Progressing');
      if (prog?.reason === 'ProgressDeadlineExceeded')
        return { line: '', done: false, error: `error: deployment "${name}" exceeded its progress deadline` };
      const want = o.spec?.replicas ?? 1;
      const updated = st.updatedReplicas ?? 0;
      if (updated < want)
        return {
          line: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`,
          done: false,
        };
      if ((st.replicas ?? 0) > updated)
        return {
          line: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`,
          done: false,
        };
      if ((st.availableReplicas ?? 0) < updated)
        return {
          line: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
          done: false,
        };
      return { line: `deployment "${name}" successfully rolled out\n`, done: true };
    }
    case 'DaemonSet': {
      if ((o.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
        return { line: '', done: true, error: 'error: rollout status is only available for RollingUpdate strategy type' };
      if (!observed) return { line: 'Waiting for daemon set spec update to be observed...\n', done: false };
      const desired = st.desiredNumberScheduled ?? 0;
      if ((st.updatedNumberScheduled ?? 0) < desired)
        return {
          line: `Waiting for daemon set "${name}" rollout to finish: ${st.updatedNumberScheduled ?? 0} out of ${desired} new pods have been updated...\n`,
          done: false,
        };
      if ((st.numberAvailable ?? 0) < desired)
        return {
          line: `Waiting for daemon set "${name}" rollout to finish: ${st.numberAvailable ?? 0} of ${desired} updated pods are available...\n`,
          done: false,
        };
      return { line: `daemon set "${name}" successfully rolled out\n`, done: true };
    }
    case 'StatefulSet': {
      if (o.spec?.updateStrategy?.type === 'OnDelete')
        return { line: '', done: true, error: 'error: rollout status is only available for RollingUpdate strategy type' };
      if (!st.observedGeneration || (o.metadata.generation ?? 0) > st.observedGeneration)
        return { line: 'Waiting for statefulset spec update to be observed...\n', done: false };
      const want = o.spec?.replicas ?? 1;
      if ((st.readyReplicas ?? 0) < want)
        return { line: `Waiting for ${want - (st.readyReplicas ?? 0)} pods to be ready...\n`, done: false };
      const ru = o.spec?.updateStrategy?.rollingUpdate;
      if ((o.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && ru) {
        if (ru.partition !== undefined && (st.updatedReplicas ?? 0) < want - ru.partition) {
          return {
            line: `Waiting for partitioned roll out to finish: ${st.updatedReplicas ?? 0} out of ${want - ru.partition} new pods have been updated...\n`,
            done: false,
          };
        }
        return { line: `partitioned roll out complete: ${st.updatedReplicas ?? 0} new pods have been updated...\n`, done: true };
      }
      if (st.updateRevision !== st.currentRevision)
        return {
          line: `waiting for statefulset rolling update to complete ${st.updatedReplicas ?? 0} pods at revision ${st.updateRevision}...\n`,
          done: false,
        };
      return {
        line: `statefulset rolling update complete ${st.currentReplicas ?? 0} pods at revision ${st.currentRevision}...\n`,
        done: true,
      };
    }
  }
  return { line: '', done: true, error: `error: no status viewer has been implemented for ${o.kind}` };
}

/** schema.GroupKind.String(): "CronJob.batch", "ReplicationController". */
function groupKind(t: Target): string {
  return `${t.info.kind}${t.info.group ? '.' + t.info.group : ''}`;
}

function checkKinds(targets: Target[], allowed: string[]): void {
  for (const t of targets)
    if (!allowed.includes(t.info.kind)) throw new KubectlError(`error: no status viewer has been implemented for ${groupKind(t)}`);
}

/** Runs `kubectl rollout <sub>`. */
export function runRollout(ctx: Ctx): KubectlResult {
  const sub = ctx.cmd.split(' ')[1];
  if (!['status', 'history', 'undo', 'restart', 'pause', 'resume'].includes(sub))
    return fail(`error: unknown command "${sub}" for "kubectl rollout"`);
  if (!ctx.args.length) return fail(`error: required resource not specified\n`);
  const targets = resolveTargets(ctx.client, ctx.args);
  const errors: string[] = [];
  let output = '';
  // a type without names selects every object of it (ResourceTypeOrNameArgs(true, …))
  const objs = objectsOf(ctx, targets, errors, false);
  for (const { t, obj } of objs) {
    const id = `${typeName(t.info)}/${obj.metadata.name}`;
    const rc = ctx.client.resource(t.info.group, t.info.resource);
    // kubectl rollout PATCHes (rollout restart / pause / resume: a strategic merge patch under
    // the field manager kubectl-rollout; undo: rollback.go's JSON patch of a Deployment, the
    // revision's strategic merge patch of a DaemonSet or StatefulSet, under the default manager)
    // true when sent; -o prints the server's answer (restart.go / pause.go info.Refresh), undo the object read
    const patch = (type: 'strategic' | 'json', body: unknown, summary: string, operation: string, fieldManager?: string): boolean => {
      const r = tryStatus(() =>
        rc.patch(obj.metadata.namespace ?? '', obj.metadata.name, type, body, { summary, ...(fieldManager ? { fieldManager } : {}) }),
      );
      // restart.go / pause.go / resume.go wrap a failed PATCH as "failed to patch: <message>"
      if (r.error)
        errors.push(sub === 'undo' ? r.error : `error: failed to patch: ${r.error.replace(/^Error from server \([^)]*\): /, '')}`);
      else output += printed(ctx, sub === 'undo' ? obj : r.value!.object, typeName(t.info), operation);
      return !r.error;
    };
    const gr = `${t.info.resource}${t.info.group ? '.' + t.info.group : ''}`;
    switch (sub) {
      case 'status': {
        checkKinds([t], ['Deployment', 'DaemonSet', 'StatefulSet']);
        if (ctx.flags.has('revision') && obj.kind !== 'StatefulSet') {
          // the revision must match the current one (status.go)
          const want = Number(ctx.flags.get('revision'));
          const latest = Math.max(
            0,
            ...ownedReplicaSets(ctx, obj)
              .map(rev)
              .filter((x) => !Number.isNaN(x)),
          );
          if (obj.kind === 'Deployment' && want !== latest) {
            errors.push(`error: desired revision (${want}) is different from the running revision (${latest})`);
            break;
          }
        }
        const s = rolloutStatusLine(obj);
        if (s.error) errors.push(s.error);
        output += s.line;
        break;
      }
      case 'history': {
        if (!['Deployment', 'DaemonSet', 'StatefulSet'].includes(obj.kind))
          throw new KubectlError(`error: no history viewer has been implemented for "${groupKind(t)}"`);
        // history.go's viewers GET the object afresh, then LIST its history by its selector
        const got = tryStatus(() => rc.get(obj.metadata.namespace ?? '', obj.metadata.name));
        if (!got.value) {
          errors.push(got.error!);
          break;
        }
        if (obj.kind === 'DaemonSet' || obj.kind === 'StatefulSet') {
          try {
            output += printControllerHistory(
              id,
              controlledHistory(ctx, got.value, true),
              ctx.flags.has('revision') ? Number(ctx.flags.get('revision')) : 0,
            );
          } catch (e) {
            errors.push((e as Error).message);
          }
          break;
        }
        const rss = ownedReplicaSets(ctx, got.value, true).filter((rs) => !Number.isNaN(rev(rs)));
        const want = ctx.flags.has('revision') ? Number(ctx.flags.get('revision')) : 0;
        if (want > 0) {
          const rs = rss.find((r) => rev(r) === want);
          if (!rs) {
            errors.push(`error: unable to find the specified revision`);
            break;
          }
          output += `${id} with revision #${want}\n${describePodTemplate(rs.spec?.template ?? {})}\n`;
          break;
        }
        const byRev = new Map<number, KObject>();
        for (const rs of rss) byRev.set(rev(rs), rs);
        const revs = [...byRev.keys()].sort((a, b) => a - b);
        const w = 10;
        let table = 'REVISION'.padEnd(w) + 'CHANGE-CAUSE\n';
        for (const r of revs)
          table += `${String(r).padEnd(w)}${byRev.get(r)!.metadata.annotations?.['kubernetes.io/change-cause'] || '<none>'}\n`;
        output += `${id} \n${table}\n`;
        break;
      }
      case 'undo': {
        if (!['Deployment', 'DaemonSet', 'StatefulSet'].includes(obj.kind))
          throw new KubectlError(`error: no rollbacker has been implemented for "${groupKind(t)}"`);
        // rollback.go's Rollback GETs the object afresh, then LISTs its history by its selector
        const got = tryStatus(() => rc.get(obj.metadata.namespace ?? '', obj.metadata.name));
        if (!got.value) {
          errors.push(got.error!);
          break;
        }
        const fresh = got.value;
        if (obj.kind === 'DaemonSet' || obj.kind === 'StatefulSet') {
          const r = controllerRollbackTarget(fresh, controlledHistory(ctx, fresh, true), Number(ctx.flags.get('to-revision') ?? 0));
          if (r.error) errors.push(r.error);
          else if (r.skipped) output += printed(ctx, obj, typeName(t.info), r.skipped);
          else {
            // the revision's data is a strategic-merge patch replacing spec.template (rollback.go
            // DaemonSetRollbacker / StatefulSetRollbacker send it as it is)
            patch('strategic', r.target!.data, `rollback ${obj.metadata.name} to revision ${r.target!.revision}`, 'rolled back');
          }
          break;
        }
        const to = Number(ctx.flags.get('to-revision') ?? 0);
        let target: KObject | undefined;
        let latest = -1;
        let latestRS: KObject | undefined;
        let prev = -1;
        // rollback.go: "failed to retrieve replica sets from deployment NAME: <message>"
        const listed = tryStatus(() => ownedReplicaSets(ctx, fresh, true));
        if (!listed.value) {
          errors.push(
            `error: failed to retrieve replica sets from deployment ${obj.metadata.name}: ${listed.error!.replace(/^Error from server \([^)]*\): /, '')}`,
          );
          break;
        }
        for (const rs of listed.value) {
          const v = rev(rs);
          if (Number.isNaN(v)) continue;
          if (to === 0) {
            if (latest < v) {
              prev = latest;
              target = latestRS;
              latest = v;
              latestRS = rs;
            } else if (prev < v) {
              prev = v;
              target = rs;
            }
          } else if (to === v) target = rs;
        }
        if (!target) {
          errors.push(
            to > 0
              ? `error: unable to find specified revision ${to} in history`
              : `error: no rollout history found for deployment "${obj.metadata.name}"`,
          );
          break;
        }
        // deploymentRevision found the revision; only then is a paused Deployment refused
        if (fresh.spec?.paused) {
          errors.push(`error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again`);
          break;
        }
        const tmpl = deepCopy(target.spec.template);
        delete tmpl.metadata?.labels?.['pod-template-hash'];
        if (deepEqual(tmpl, fresh.spec.template)) {
          output += printed(
            ctx,
            obj,
            typeName(t.info),
            `skipped rollback (current template already matches revision ${to || rev(target)})`,
          );
          break;
        }
        const ann: Record<string, string> = {};
        for (const k of SKIP_ANNOTATIONS) {
          const v = getOwn(fresh.metadata.annotations, k);
          if (v !== undefined) setOwn(ann, k, v);
        }
        for (const [k, v] of Object.entries(target.metadata.annotations ?? {})) if (!SKIP_ANNOTATIONS.has(k)) setOwn(ann, k, v as string);
        // rollback.go getDeploymentPatch: a JSON patch replacing the template and the annotations
        const ops = [
          { op: 'replace', path: '/spec/template', value: tmpl },
          { op: 'replace', path: '/metadata/annotations', value: ann },
        ];
        patch('json', ops, `rollback ${obj.metadata.name} to revision ${rev(target)}`, 'rolled back');
        break;
      }
      case 'restart': {
        if (obj.kind === 'Deployment' && obj.spec?.paused) {
          errors.push(`error: ${gr} "${obj.metadata.name}" can't restart paused deployment (run rollout resume first)`);
          break;
        }
        if (!['Deployment', 'DaemonSet', 'StatefulSet'].includes(obj.kind)) {
          errors.push(`error: ${gr} "${obj.metadata.name}" restarting is not supported`);
          break;
        }
        const restartedAt = new Date(ctx.nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
        const body = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': restartedAt } } } } };
        patch('strategic', body, `restart ${obj.metadata.name}`, 'restarted', 'kubectl-rollout');
        break;
      }
      case 'pause':
      case 'resume': {
        if (obj.kind !== 'Deployment') {
          errors.push(`error: ${gr} "${obj.metadata.name}" ${sub === 'pause' ? 'pausing' : 'resuming'} is not supported`);
          break;
        }
        const paused = Boolean(obj.spec?.paused);
        if (sub === 'pause' && paused) {
          errors.push(`error: ${gr} "${obj.metadata.name}" is already paused`);
          break;
        }
        if (sub === 'resume' && !paused) {
          errors.push(`error: ${gr} "${obj.metadata.name}" is not paused`);
          break;
        }
        const body = { spec: { paused: sub === 'pause' ? true : null } };
        patch('strategic', body, `${sub} ${obj.metadata.name}`, sub === 'pause' ? 'paused' : 'resumed', 'kubectl-rollout');
        break;
      }
    }
  }
  if (!objs.length && !errors.length) return fail(`error: no resources found\n${seeHelp(ctx.cmd)}`);
  return { output, error: stderrOf(errors), exitCode: errors.length ? 1 : 0 };
}
