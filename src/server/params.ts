/**
 * Query parameters as kube-apiserver decodes and validates them:
 *
 * - decoding (apimachinery runtime.ParameterCodec: url.Values → v1.ListOptions / DeleteOptions
 *   through the generated conversions and runtime/conversion.go's Convert_Slice_string_To_int64 /
 *   _bool): a number that Go's strconv.ParseInt refuses answers 400 with strconv's own text,
 *   `strconv.ParseInt: parsing "abc": invalid syntax`; a bool is false only for "0" / "false";
 * - ListOptions validation (apimachinery apis/meta/internalversion/validation ValidateListOptions):
 *   422 `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: …`;
 * - the storage's list checks (apiserver storage ValidateListOptions with etcd3's continue tokens
 *   and APIObjectVersioner.ParseResourceVersion): 400 `invalid resource version: resourceVersion:
 *   Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`, `invalid continue
 *   token: continue key is not valid: …`; a watch passes the versioner's error through unwrapped,
 *   which handlers answer as a 500 Status without a reason (ErrorToAPIStatus).
 */
import { goQuote, newBadRequest, newInvalid, type FieldError } from '../cluster/api/errors';
import { statusError } from './http-util';

/** Go's strconv.ParseInt(s, 10, 64). @throws Error with strconv's message. */
export function goParseInt64(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new Error(`strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) throw new Error(`strconv.ParseInt: parsing ${goQuote(s)}: value out of range`);
  return Number(v);
}

/** Go's strconv.ParseUint(s, 10, 64). @throws Error with strconv's message. */
export function goParseUint64(s: string): number {
  if (!/^[0-9]+$/.test(s)) throw new Error(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  if (BigInt(s) > 18446744073709551615n) throw new Error(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return Number(s);
}

/** runtime.Convert_Slice_string_To_bool: the first value; false only for "0" and "false" (any case). */
export function goQueryBool(q: URLSearchParams, key: string): boolean | undefined {
  const v = q.get(key);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** An int64 query parameter; undefined when absent. @throws StatusError 400 with strconv's text. */
export function queryInt64(q: URLSearchParams, key: string): number | undefined {
  const v = q.get(key);
  if (v === null) return undefined;
  try {
    return goParseInt64(v);
  } catch (err) {
    throw newBadRequest((err as Error).message);
  }
}

/** The list/watch options a request carries, decoded and validated. */
export interface ListQuery {
  watch: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  /** 0 = no limit (negative limits are no limit too, as the storage treats them). */
  limit: number;
  continueToken: string;
  /** undefined when absent. */
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
}

/**
 * Decodes and validates ListOptions from the query (decode, then ValidateListOptions).
 * @throws StatusError 400 (decoding) or 422 (validation).
 */
export function parseListQuery(q: URLSearchParams): ListQuery {
  const watch = goQueryBool(q, 'watch') ?? false;
  const allowWatchBookmarks = goQueryBool(q, 'allowWatchBookmarks') ?? false;
  const resourceVersion = q.get('resourceVersion') ?? '';
  const resourceVersionMatch = q.get('resourceVersionMatch') ?? '';
  const timeoutSeconds = queryInt64(q, 'timeoutSeconds');
  const limit = queryInt64(q, 'limit') ?? 0;
  const continueToken = q.get('continue') ?? '';
  const sendInitialEvents = goQueryBool(q, 'sendInitialEvents');
  const errs: FieldError[] = [];
  const path = 'resourceVersionMatch';
  if (watch) {
    if (sendInitialEvents !== undefined) {
      if (resourceVersionMatch !== 'NotOlderThan')
        errs.push({ type: 'Forbidden', field: path, detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' });
      errs.push({
        type: 'Forbidden',
        field: 'sendInitialEvents',
        detail: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      });
    }
    if (resourceVersionMatch) {
      if (sendInitialEvents === undefined)
        errs.push({
          type: 'Forbidden',
          field: path,
          detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        });
      if (resourceVersionMatch !== 'NotOlderThan')
        errs.push({ type: 'NotSupported', field: path, value: resourceVersionMatch, supported: ['NotOlderThan'] });
      if (continueToken)
        errs.push({ type: 'Forbidden', field: path, detail: 'resourceVersionMatch is forbidden when continue is provided' });
    }
  } else {
    if (resourceVersionMatch) {
      if (!resourceVersion)
        errs.push({ type: 'Forbidden', field: path, detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' });
      if (continueToken)
        errs.push({ type: 'Forbidden', field: path, detail: 'resourceVersionMatch is forbidden when continue is provided' });
      if (resourceVersionMatch !== 'Exact' && resourceVersionMatch !== 'NotOlderThan')
        errs.push({ type: 'NotSupported', field: path, value: resourceVersionMatch, supported: ['Exact', 'NotOlderThan', ''] });
      if (resourceVersionMatch === 'Exact' && resourceVersion === '0')
        errs.push({ type: 'Forbidden', field: path, detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"' });
    }
    if (sendInitialEvents !== undefined)
      errs.push({ type: 'Forbidden', field: 'sendInitialEvents', detail: 'sendInitialEvents is forbidden for list' });
  }
  if (errs.length) throw newInvalid('ListOptions.meta.k8s.io', '', errs);
  return { watch, resourceVersion, resourceVersionMatch, limit: limit > 0 ? limit : 0, continueToken, timeoutSeconds, allowWatchBookmarks };
}

/** APIObjectVersioner.ParseResourceVersion's error text, or undefined for "", "0" and valid numbers. */
export function resourceVersionError(rv: string): string | undefined {
  if (rv === '' || rv === '0') return undefined;
  try {
    goParseUint64(rv);
    return undefined;
  } catch (err) {
    return `resourceVersion: Invalid value: ${goQuote(rv)}: ${(err as Error).message}`;
  }
}

/** The storage's list check of resourceVersion. @throws StatusError 400. */
export function checkListResourceVersion(lq: ListQuery): void {
  if (lq.continueToken) {
    if (lq.resourceVersion && lq.resourceVersion !== '0')
      throw newBadRequest('specifying resource version is not allowed when using continue');
    return;
  }
  const e = resourceVersionError(lq.resourceVersion);
  if (e) throw newBadRequest(`invalid resource version: ${e}`);
}

/** The watch cache's check of resourceVersion: the bare versioner error, a 500 without a reason. @throws StatusError 500. */
export function checkWatchResourceVersion(rv: string): void {
  const e = resourceVersionError(rv);
  if (e) throw statusError(500, '', e);
}

/**
 * How long a watch runs, wall ms: timeoutSeconds when positive; the apiserver's
 * --min-request-timeout (1800 s) when absent or 0; a negative value ends the watch at once (its
 * timer fires immediately). Capped at setTimeout's 2^31−1 ms.
 */
export function watchTimeoutMs(timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined || timeoutSeconds === 0) return 1800_000;
  if (timeoutSeconds < 0) return 0;
  return Math.min(timeoutSeconds * 1000, 2 ** 31 - 1);
}
