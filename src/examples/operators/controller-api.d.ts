/**
 * What a kube-relay user controller's code sees (docs/user-controllers.md): the `reconcile`
 * function it defines, the `client` it gets, and the global `ctrl` helpers. The editor loads
 * this file into Monaco's TypeScript service for completion; tsconfig.controllers.json checks
 * the gallery's controllers against it. The runtime behind it is
 * src/cluster/user-controller/runtime.ts (in the sandbox) and controller.ts (in the engine).
 */

/** metav1.OwnerReference */
interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** metav1.ObjectMeta (the fields a controller usually reads or writes). */
interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  /** Set when a delete waits for finalizers: the object goes once `finalizers` is empty. */
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

/** Any Kubernetes object: built-in or custom. */
interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

/** metav1.Condition */
interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** Which object: `get` and `delete` also take the object itself. */
interface ObjectKey {
  apiVersion: string;
  kind: string;
  /** default: "default" for a namespaced kind */
  namespace?: string;
  name: string;
}

/** An object or a key: what `get`, `patch`, `delete` and `event` take (kubernetes-types objects too). */
type ObjectRef = ObjectKey | { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string; uid?: string } };

/** The request controller-runtime's Reconcile gets: which object, and the simulated time. */
interface ReconcileRequest {
  readonly namespace: string;
  readonly name: string;
  /** Simulated now, RFC 3339 (e.g. "2026-01-01T00:01:30Z"). */
  readonly now: string;
}

/** reconcile.Result: nothing (done), `requeue` (again, rate limited) or `requeueAfter`. */
interface ReconcileResult {
  requeue?: boolean;
  /** Simulated seconds, or a duration such as "30s", "2m". */
  requeueAfter?: number | string;
}

/** A request the apiserver refused: its Status. */
interface ApiError extends Error {
  /** HTTP status: 404, 409, 422… */
  code: number;
  /** NotFound, AlreadyExists, Conflict, Invalid, Forbidden… */
  reason: string;
}

/**
 * The controller's client. Reads of the kinds it watches come from its informer cache; other
 * reads and every write go through the apiserver (authentication as its ServiceAccount,
 * admission, validation) and show in the relay. A refused request rejects with an {@link ApiError}.
 * `T` types the object: `client.get<Deployment>(…)` with `import type { Deployment } from
 * 'kubernetes-types/apps/v1'` (the editor knows every kind of Kubernetes 1.30).
 */
interface Client {
  /** Reads one object; rejects with NotFound when there is none. */
  get<T = KubeObject>(key: ObjectRef): Promise<T>;
  /** Lists objects of a kind, in a namespace or all, optionally by label selector ("app=web"). */
  list<T = KubeObject>(apiVersion: string, kind: string, opts?: { namespace?: string; labelSelector?: string }): Promise<T[]>;
  /** Creates an object; resolves to it as stored (uid, resourceVersion…). */
  create<T = KubeObject>(object: T): Promise<T>;
  /** Replaces an object (its resourceVersion must be current, else Conflict). */
  update<T = KubeObject>(object: T): Promise<T>;
  /** Replaces an object's status subresource. */
  updateStatus<T = KubeObject>(object: T): Promise<T>;
  /** Patches an object (default a JSON merge patch). */
  patch<T = KubeObject>(key: ObjectRef, patch: unknown, patchType?: 'merge' | 'json' | 'strategic'): Promise<T>;
  /** Deletes an object (Background propagation unless told). */
  delete(key: ObjectRef, opts?: { propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' }): Promise<KubeObject>;
  /** Records an Event about an object (source.component = the controller's name). */
  event(object: ObjectRef, type: 'Normal' | 'Warning', reason: string, message: string): Promise<null>;
}

/** The function a controller defines: `export async function reconcile(request, client) {…}`. */
type Reconcile = (request: ReconcileRequest, client: Client) => Promise<ReconcileResult | void> | ReconcileResult | void;

/** Helpers after controller-runtime's controllerutil and apimachinery's meta and errors. */
declare const ctrl: {
  /** True for a NotFound ApiError (apierrors.IsNotFound). */
  isNotFound(err: unknown): boolean;
  isConflict(err: unknown): boolean;
  isAlreadyExists(err: unknown): boolean;
  /** Makes `owner` the controller owner of `object` (an ownerReference with controller and blockOwnerDeletion); returns `object`. */
  setControllerReference<T = KubeObject>(owner: KubeObject, object: T): T;
  containsFinalizer(object: KubeObject, finalizer: string): boolean;
  /** Adds a finalizer; true when it was not there (then update the object). */
  addFinalizer(object: KubeObject, finalizer: string): boolean;
  /** Removes a finalizer; true when it was there (then update the object). */
  removeFinalizer(object: KubeObject, finalizer: string): boolean;
  /** meta.SetStatusCondition: sets or replaces the condition of that type (lastTransitionTime moves only when status changes); true when something changed. */
  setStatusCondition(conditions: Condition[], condition: Condition, now: string): boolean;
};
