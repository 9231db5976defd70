/**
 * API errors as kube-apiserver returns them: a metav1.Status with code, reason, message and
 * details.causes, and the message kubectl prints for each.
 *
 * Mirrors k8s.io/apimachinery/pkg/api/errors/errors.go and
 * k8s.io/apimachinery/pkg/util/validation/field/errors.go.
 */

/** metav1.StatusReason values used by the engine. */
export type StatusReason =
  /** StatusReasonUnknown: an error that was not a metav1.Status (ErrorToAPIStatus's 500) */
  | ''
  | 'BadRequest'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'Gone'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'Expired'
  | 'InternalError'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge';

/** A metav1.StatusCause (one per field error). */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

/** metav1.Status, as serialized on the wire. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: StatusReason;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** Thrown by the apiserver and the clientset; `status` is what the HTTP API would return. */
export class StatusError extends Error {
  readonly status: Status;
  constructor(status: Status) {
    super(status.message);
    this.status = status;
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason {
    return this.status.reason;
  }
}

/**
 * metav1.CauseType of the 403 the namespace lifecycle admission gives a create in a namespace
 * being deleted (k8s.io/api/core/v1 NamespaceTerminatingCause; set by
 * plugin/pkg/admission/namespace/lifecycle/admission.go).
 */
export const NamespaceTerminatingCause = 'NamespaceTerminating';

/**
 * The first cause of type `name` in a StatusError's details (errors.go StatusCause), or
 * undefined when `err` is no StatusError or has none. A cause's type is `reason` on the wire.
 */
export function statusCause(err: unknown, name: string): StatusCause | undefined {
  if (!(err instanceof StatusError)) return undefined;
  return err.status.details?.causes?.find((c) => c.reason === name);
}

/** errors.HasStatusCause: whether `err` is a StatusError carrying a cause of type `name`. */
export function hasStatusCause(err: unknown, name: string): boolean {
  return statusCause(err, name) !== undefined;
}

/**
 * The namespace lifecycle admission's 403 for a create in a terminating namespace:
 * `pods "x" is forbidden: unable to create new content in namespace ns because it is being
 * terminated`, with the NamespaceTerminating cause (field metadata.namespace) controllers test
 * for with {@link hasStatusCause}.
 */
export function newNamespaceTerminating(groupResource: string, name: string, namespace: string): StatusError {
  const err = newForbidden(groupResource, name, `unable to create new content in namespace ${namespace} because it is being terminated`);
  err.status.details = {
    ...err.status.details,
    causes: [{ reason: NamespaceTerminatingCause, message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
  };
  return err;
}

/** Type of a field error (field.ErrorType), with the text field.Error prints. */
export type FieldErrorType =
  'Required' | 'Invalid' | 'Forbidden' | 'Duplicate' | 'NotSupported' | 'TooLong' | 'TooMany' | 'Internal' | 'NotFound';

const FIELD_ERROR_TEXT: Record<FieldErrorType, [string, string]> = {
  Required: ['FieldValueRequired', 'Required value'],
  Invalid: ['FieldValueInvalid', 'Invalid value'],
  Forbidden: ['FieldValueForbidden', 'Forbidden'],
  Duplicate: ['FieldValueDuplicate', 'Duplicate value'],
  NotSupported: ['FieldValueNotSupported', 'Unsupported value'],
  TooLong: ['FieldValueTooLong', 'Too long'],
  TooMany: ['FieldValueTooMany', 'Too many'],
  Internal: ['InternalError', 'Internal error'],
  NotFound: ['FieldValueNotFound', 'Not found'],
};

/**
 * One validation error (field.Error). `value` is printed as Go's %#v would for
 * Invalid/Duplicate/NotSupported; omit it (undefined) for types that print no value.
 */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail?: string;
  /** for NotSupported: the allowed values, printed as `supported values: "a", "b"` */
  supported?: string[];
  /** when true, print the value even for types that omit it */
  hasValue?: boolean;
  /**
   * The value exactly as Go's %#v prints it, when goValue cannot derive it (e.g.
   * `v1.LabelSelector{MatchLabels:map[string]string(nil), …}`); printed verbatim.
   */
  rawValue?: string;
}

const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const GO_ESCAPES: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
};

/**
 * A string as Go's strconv.Quote (fmt %q, and %#v of a string) prints it: `"` and `\` escaped,
 * printable runes (unicode.IsPrint: letters, marks, numbers, punctuation, symbols, ASCII
 * space) kept, `\a \b \f \n \r \t \v` for those controls, `\xNN` for other bytes below 0x20
 * and 0x7f, `\uNNNN` / `\UNNNNNNNN` for other non-printable runes (U+00A0, U+2028, U+200B…).
 * A lone UTF-16 surrogate stands for U+FFFD, as Go's JSON decoder makes it.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of String(s)) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    const esc = GO_ESCAPES[c];
    if (esc) out += esc;
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (GO_PRINTABLE.test(String.fromCodePoint(c))) out += String.fromCodePoint(c);
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Formats a value as Go's %#v does for the JSON-ish values validation reports. */
export function goValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[]${v.length && typeof v[0] === 'string' ? 'string' : 'interface {}'}{${v.map(goValue).join(', ')}}`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    if (entries.every(([, x]) => typeof x === 'string')) {
      return `map[string]string{${entries.map(([k, x]) => `${goQuote(k)}:${goQuote(x as string)}`).join(', ')}}`;
    }
    return JSON.stringify(v);
  }
  return String(v);
}

/** The text of one field error, exactly as field.Error.Error() prints it. */
export function fieldErrorString(e: FieldError): string {
  const [, text] = FIELD_ERROR_TEXT[e.type];
  let s = `${e.field}: ${text}`;
  const printsValue = e.type === 'Invalid' || e.type === 'Duplicate' || e.type === 'NotSupported' || e.type === 'NotFound' || e.hasValue;
  if (printsValue && e.rawValue !== undefined) {
    s += `: ${e.rawValue}`;
  } else if (printsValue && (e.value !== undefined || e.type === 'Invalid')) {
    s += `: ${goValue(e.value)}`;
  }
  if (e.type === 'NotSupported' && e.supported) {
    s += `: supported values: ${e.supported.map(goQuote).join(', ')}`;
  } else if (e.detail) {
    s += `: ${e.detail}`;
  }
  return s;
}

/** 404 NotFound: `pods "x" not found` (group-qualified resource for non-core groups). */
export function newNotFound(groupResource: string, name: string): StatusError {
  const [resource, group] = splitGroupResource(groupResource);
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${groupResource} ${goQuote(name)} not found`,
    reason: 'NotFound',
    details: { name, ...(group ? { group } : {}), kind: resource },
    code: 404,
  });
}

/** 409 AlreadyExists: `deployments.apps "x" already exists`. */
export function newAlreadyExists(groupResource: string, name: string): StatusError {
  const [resource, group] = splitGroupResource(groupResource);
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${groupResource} ${goQuote(name)} already exists`,
    reason: 'AlreadyExists',
    details: { name, ...(group ? { group } : {}), kind: resource },
    code: 409,
  });
}

/**
 * 409 Conflict for a stale resourceVersion, with the upstream optimistic-lock message:
 * `Operation cannot be fulfilled on deployments.apps "x": the object has been modified; please apply your changes to the latest version and try again`.
 */
export function newConflict(groupResource: string, name: string, detail?: string): StatusError {
  const [resource, group] = splitGroupResource(groupResource);
  const why = detail ?? 'the object has been modified; please apply your changes to the latest version and try again';
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Operation cannot be fulfilled on ${groupResource} ${goQuote(name)}: ${why}`,
    reason: 'Conflict',
    details: { name, ...(group ? { group } : {}), kind: resource },
    code: 409,
  });
}

/**
 * 422 Invalid: `Deployment.apps "x" is invalid: [a: Required value, b: Invalid value: …]`
 * (one error prints without brackets), as errors.NewInvalid does. `groupKind` is "Deployment.apps"
 * or "Pod".
 */
export function newInvalid(groupKind: string, name: string, errs: FieldError[]): StatusError {
  const [kind, group] = splitGroupResource(groupKind);
  const strs = errs.map(fieldErrorString);
  const agg = strs.length === 1 ? strs[0] : `[${strs.join(', ')}]`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${groupKind} ${goQuote(name)} is invalid: ${agg}`,
    reason: 'Invalid',
    details: {
      name,
      ...(group ? { group } : {}),
      kind,
      causes: errs.map((e) => ({
        reason: FIELD_ERROR_TEXT[e.type][0],
        message: fieldErrorString(e).slice(e.field.length + 2),
        field: e.field,
      })),
    },
    code: 422,
  });
}

/** 400 BadRequest with a free-form message. */
export function newBadRequest(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
}

/** 403 Forbidden: `<resource> "<name>" is forbidden: <why>`. */
export function newForbidden(groupResource: string, name: string, why: string): StatusError {
  const [resource, group] = splitGroupResource(groupResource);
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${groupResource} ${goQuote(name)} is forbidden: ${why}`,
    reason: 'Forbidden',
    details: { name, ...(group ? { group } : {}), kind: resource },
    code: 403,
  });
}

/** 410 Gone for a watch from a compacted resourceVersion. */
export function newGone(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Expired', code: 410 });
}

/** 405 MethodNotAllowed. */
export function newMethodNotAllowed(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'MethodNotAllowed',
    code: 405,
  });
}

function splitGroupResource(gr: string): [string, string] {
  const i = gr.indexOf('.');
  return i < 0 ? [gr, ''] : [gr.slice(0, i), gr.slice(i + 1)];
}

/**
 * What kubectl prints on stderr for a failed request: `Error from server (NotFound): …`,
 * and for 422 the bare message (`The Deployment "x" is invalid: …`), as
 * k8s.io/kubectl/pkg/cmd/util/helpers.go (StandardErrorMessage) does.
 */
export function kubectlErrorMessage(err: StatusError): string {
  const s = err.status;
  if (s.reason === 'Invalid' && s.details && !s.details.kind && !s.details.name && s.details.causes?.length) {
    // checkErr's "The request is invalid" for an Invalid without kind or name (a patch that does not decode)
    const causes = s.details.causes;
    if (causes.length === 1) return `The request is invalid: ${causes[0].field}: ${causes[0].message}`;
    return `The request is invalid: \n${causes.map((c) => `* ${c.field}: ${c.message}`).join('\n')}`;
  }
  if (s.reason === 'Invalid' && s.details?.kind) {
    const causes = s.details.causes ?? [];
    const gk = s.details.kind; // kubectl prints the bare kind: "The Deployment \"x\" is invalid"
    const name = s.details.name ?? '';
    if (causes.length === 0) return `The ${gk} ${goQuote(name)} is invalid`;
    if (causes.length === 1) return `The ${gk} ${goQuote(name)} is invalid: ${causes[0].field}: ${causes[0].message}`;
    return `The ${gk} ${goQuote(name)} is invalid: \n${causes.map((c) => `* ${c.field}: ${c.message}`).join('\n')}`;
  }
  if (s.reason === 'Invalid' && !s.details?.name && !s.details?.kind) {
    // helpers.go checkErr: an Invalid with neither kind nor name is "The request is invalid",
    // with its causes, else with the server's message
    const causes = s.details?.causes ?? [];
    if (causes.length === 0) return s.message ? `The request is invalid: ${s.message}` : 'The request is invalid';
    if (causes.length === 1) return `The request is invalid: ${causes[0].field}: ${causes[0].message}`;
    return `The request is invalid: \n${causes.map((c) => `* ${c.field}: ${c.message}`).join('\n')}`;
  }
  // StandardErrorMessage: a Status without a reason prints no parenthesis
  if (!s.reason) return `Error from server: ${s.message}`;
  return `Error from server (${s.reason}): ${s.message}`;
}
