/**
 * Content negotiation as kube-apiserver's staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
 * negotiation (negotiate.go, errors.go) does it:
 *
 * - request bodies (NegotiateInputSerializer): the Content-Type's media type (parameters dropped,
 *   case-insensitive, as mime.ParseMediaType) must be one the resource decodes — JSON, YAML or
 *   Kubernetes protobuf (custom resources: JSON, YAML); an absent Content-Type means the first,
 *   JSON. Anything else (text/plain, form-urlencoded, multipart, …) is 415 UnsupportedMediaType
 *   `the body of the request was in an unknown format - accepted media types include: …`.
 * - responses (NegotiateOutputMediaType): some Accept clause must name a media type the server
 *   writes (or a wildcard); else 406 NotAcceptable `only the following media types are
 *   accepted: …`. An absent Accept means JSON. YAML is written when it is the best match.
 */
import { StatusError } from '../cluster/api/errors';
import { PROTOBUF_MEDIA_TYPE } from './protobuf';

/** The decoders kube-apiserver registers for built-in resources, in its order. */
export const BUILTIN_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];
/** Custom resources have no protobuf serializer. */
export const CUSTOM_MEDIA_TYPES = ['application/json', 'application/yaml'];

/** The decoder a body takes. */
export type InputFormat = 'json' | 'yaml' | 'protobuf';

/** 415 as negotiation.NewUnsupportedMediaTypeError. */
export function newUnsupportedMediaType(accepted: string[]): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    reason: 'UnsupportedMediaType',
    code: 415,
  });
}

/** 406 as negotiation.NewNotAcceptableError. */
export function newNotAcceptable(accepted: string[]): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `only the following media types are accepted: ${accepted.join(', ')}`,
    reason: 'NotAcceptable',
    code: 406,
  });
}

/** mime.ParseMediaType's media type: lower-cased, parameters dropped; undefined when malformed. */
export function mediaTypeOf(contentType: string): string | undefined {
  const t = contentType.split(';')[0].trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(t) ? t : undefined;
}

/**
 * NegotiateInputSerializer for a create/update (or DELETE options) body.
 * @param contentType the request's Content-Type header ("" when absent: JSON).
 * @param custom true for a custom resource (no protobuf).
 * @throws StatusError 415.
 */
export function negotiateInput(contentType: string | undefined, custom = false): InputFormat {
  const supported = custom ? CUSTOM_MEDIA_TYPES : BUILTIN_MEDIA_TYPES;
  if (!contentType) return 'json';
  const t = mediaTypeOf(contentType);
  if (t === 'application/json') return 'json';
  if (t === 'application/yaml') return 'yaml';
  if (t === PROTOBUF_MEDIA_TYPE && !custom) return 'protobuf';
  throw newUnsupportedMediaType(supported);
}

/** The response encodings this server writes. */
export type OutputFormat = 'json' | 'yaml';

/**
 * NegotiateOutputMediaType over the Accept header: clauses by q (ties keep their order), the first
 * one the server can write wins. `application/json;as=Table;…`, aggregated discovery and other
 * `as=` transforms are JSON. Protobuf is accepted and answered as JSON (the server writes no
 * protobuf objects; clients that ask for it always offer JSON too).
 * @throws StatusError 406 when no clause matches.
 */
export function negotiateOutput(accept: string | undefined, custom = false): OutputFormat {
  if (!accept || !accept.trim()) return 'json';
  const clauses = accept
    .split(',')
    .map((c, i) => {
      const [type, ...params] = c.split(';').map((x) => x.trim());
      const q = params.find((p) => /^q=/i.test(p));
      return { type: type.toLowerCase(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((c) => c.type && !(c.q <= 0) && !Number.isNaN(c.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const c of clauses) {
    if (c.type === '*/*' || c.type === 'application/*' || c.type === 'application/json') return 'json';
    if (c.type === 'application/yaml') return 'yaml';
    if (c.type === PROTOBUF_MEDIA_TYPE && !custom) return 'json';
  }
  throw newNotAcceptable(custom ? CUSTOM_MEDIA_TYPES : BUILTIN_MEDIA_TYPES);
}
