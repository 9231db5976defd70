/**
 * The code that runs inside a user controller's sandbox, beside the learner's: it turns the
 * source into a `reconcile` function and gives it the `client` and the `ctrl` helpers
 * (docs/user-controllers.md#the-client). It is JavaScript text, not a module, so that the
 * same text is evaluated inside the sandbox's own realm in both sandboxes (node's vm context
 * headless, src/cli/controller-vm.ts; the Web Worker in the browser,
 * src/worker/controller-sandbox.worker.ts): the objects the learner's code touches are that
 * realm's, never the engine's.
 *
 * `RUNTIME_JS` evaluates to a function `(callHost) => run`, where `callHost(jsonRequest)`
 * answers a ClientRequest (types.ts) as JSON text — at once (vm) or as a promise (worker) — and
 * `run(code, request)` returns a promise of what `reconcile` returned (JSON-cloned), or
 * rejects with what it threw.
 *
 * The helpers mirror controller-runtime's controllerutil (SetControllerReference,
 * ContainsFinalizer, AddFinalizer, RemoveFinalizer), apimachinery's meta.SetStatusCondition and
 * apierrors.IsNotFound.
 */
export const RUNTIME_JS = String.raw`(function (callHost) {
  'use strict';
  class ApiError extends Error {
    constructor(e) { super(e.message); this.name = 'ApiError'; this.code = e.code; this.reason = e.reason; }
  }
  const send = (req) => Promise.resolve(callHost(JSON.stringify(req))).then((text) => {
    const r = JSON.parse(text);
    if (r.ok) return r.value;
    throw new ApiError(r.error);
  });
  const keyOf = (o) => {
    if (!o || typeof o !== 'object') throw new TypeError('expected an object or {apiVersion, kind, namespace?, name}');
    const m = o.metadata && typeof o.metadata === 'object' ? o.metadata : o;
    return { apiVersion: o.apiVersion, kind: o.kind, namespace: m.namespace, name: m.name };
  };
  const client = Object.freeze({
    get: (key) => send({ op: 'get', key: keyOf(key) }),
    list: (apiVersion, kind, opts) => send({ op: 'list', apiVersion, kind, namespace: opts && opts.namespace, labelSelector: opts && opts.labelSelector }),
    create: (object) => send({ op: 'create', object }),
    update: (object) => send({ op: 'update', object }),
    updateStatus: (object) => send({ op: 'updateStatus', object }),
    patch: (key, patch, patchType) => send({ op: 'patch', key: keyOf(key), patch, patchType: patchType || 'merge' }),
    delete: (key, opts) => send({ op: 'delete', key: keyOf(key), propagationPolicy: opts && opts.propagationPolicy }),
    event: (object, type, reason, message) => send({ op: 'event', object: Object.assign(keyOf(object), { uid: object && object.metadata && object.metadata.uid }), type, reason, message }),
  });
  const finalizers = (o) => (o.metadata.finalizers = o.metadata.finalizers || []);
  const ctrl = Object.freeze({
    ApiError,
    isNotFound: (e) => !!e && e.reason === 'NotFound',
    isConflict: (e) => !!e && e.reason === 'Conflict',
    isAlreadyExists: (e) => !!e && e.reason === 'AlreadyExists',
    setControllerReference(owner, object) {
      const refs = (object.metadata.ownerReferences = (object.metadata.ownerReferences || []).filter((r) => !r.controller || r.uid === owner.metadata.uid));
      const ref = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true };
      const i = refs.findIndex((r) => r.uid === owner.metadata.uid);
      if (i >= 0) refs[i] = ref; else refs.push(ref);
      return object;
    },
    containsFinalizer: (o, f) => (o.metadata.finalizers || []).includes(f),
    addFinalizer(o, f) { const l = finalizers(o); if (l.includes(f)) return false; l.push(f); return true; },
    removeFinalizer(o, f) { const l = finalizers(o); const i = l.indexOf(f); if (i < 0) return false; l.splice(i, 1); return true; },
    setStatusCondition(conditions, c, now) {
      const prev = conditions.find((x) => x.type === c.type);
      const next = Object.assign({ reason: '', message: '' }, c, { lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : (c.lastTransitionTime || now) });
      if (prev) conditions[conditions.indexOf(prev)] = next; else conditions.push(next);
      return !prev || prev.status !== next.status || prev.reason !== next.reason || prev.message !== next.message;
    },
  });
  const quiet = () => undefined;
  const console = Object.freeze({ log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet });
  let compiled = null;
  let compiledCode = null;
  const compile = (code) => {
    const body = String(code)
      .replace(/^([ \t]*)export[ \t]+default[ \t]+(?=(async[ \t]+)?function)/gm, '$1')
      .replace(/^([ \t]*)export[ \t]+(?=(async[ \t]+)?function|const|let|var|class)/gm, '$1');
    const make = new Function('ctrl', 'console', 'client', body + '\n;return typeof reconcile === "function" ? reconcile : undefined;');
    const fn = make(ctrl, console, undefined);
    if (typeof fn !== 'function') throw new Error('the source defines no function named reconcile');
    return fn;
  };
  return function run(code, request) {
    return Promise.resolve().then(() => {
      if (compiledCode !== code) { compiled = compile(code); compiledCode = code; }
      return compiled(Object.freeze(Object.assign({}, request)), client);
    }).then((v) => (v === undefined ? null : JSON.parse(JSON.stringify(v))));
  };
})`;
