/**
 * The kubelet's ServiceAccount token manager, as pkg/kubelet/token/token_manager.go: the
 * projected `serviceAccountToken` volume sources (volumes.ts) ask it for a token; it answers
 * from its cache, or asks the apiserver — through the kubelet's own client, as
 * `system:node:<node>`, so the request is drawn kubelet → kube-apiserver and the Node authorizer
 * decides it — with `create serviceaccounts/token` (ServiceAccounts(ns).CreateToken).
 *
 * - GetServiceAccountToken: a cached token that does not require a refresh is returned as is;
 *   otherwise a new one is requested. A failed request with nothing cached is
 *   `failed to fetch token: <err>`; with an expired cached token
 *   `token <key> expired and refresh failed: <err>`; with a still valid one the old token is
 *   kept (upstream logs "Couldn't update token").
 * - requiresRefresh: the token is older than 80% of its TTL (`exp − ttl·20/100 − jitter`), or
 *   older than 24 h (`iat + 24h − jitter`), or issued in the future; jitter is a whole number of
 *   seconds in [0, 10) drawn on every check (upstream's rand.Float64, here a derived RNG stream).
 * - DeleteServiceAccountToken: every cached token bound to the Pod's uid is dropped (the
 *   projected volume's TearDown, when the Pod goes).
 * - cleanup (upstream every minute from a goroutine): expired tokens are dropped; here it runs
 *   from GetServiceAccountToken when a minute has passed since the last cleanup (no timer of its own).
 *
 * Times: the clock is read in simulated ms; TokenRequest times are RFC 3339 with whole seconds.
 */
import type { Rng } from '../sim/rng';
import type { BoundObjectReference, TokenRequest } from '../apiserver/token-request';

/** maxTTL: a token older than this is refreshed whatever its lifetime, in seconds (24 h). */
export const MAX_TTL_SECONDS = 24 * 60 * 60;
/** gcPeriod: how often expired tokens are dropped, simulated ms. */
export const GC_PERIOD_MS = 60_000;
/** maxJitter: the refresh is brought forward by up to this many seconds. */
export const MAX_JITTER_SECONDS = 10;

/** The apiserver call (client-go ServiceAccounts(namespace).CreateToken); throws the StatusError it answers. */
export type GetToken = (name: string, namespace: string, tr: TokenRequest) => TokenRequest;

/** Go's %q of a string (strconv.Quote for the ASCII the keys hold). */
const q = (s: string): string => JSON.stringify(s);

/**
 * keyFunc: `%q/%q/%#v/%#v/%#v` of the ServiceAccount name, namespace, audiences,
 * expirationSeconds and bound object reference, e.g.
 * `"default"/"default"/[]string(nil)/3607/v1.BoundObjectReference{Kind:"Pod", APIVersion:"v1", Name:"web", UID:"…"}`.
 */
export function keyFunc(name: string, namespace: string, tr: TokenRequest): string {
  const auds = tr.spec?.audiences;
  const audText = auds ? `[]string{${auds.map(q).join(', ')}}` : '[]string(nil)';
  const exp = tr.spec?.expirationSeconds ?? 0;
  const r: BoundObjectReference = tr.spec?.boundObjectRef ?? {};
  const ref = `v1.BoundObjectReference{Kind:${q(r.kind ?? '')}, APIVersion:${q(r.apiVersion ?? '')}, Name:${q(r.name ?? '')}, UID:${q(r.uid ?? '')}}`;
  return `${q(name)}/${q(namespace)}/${audText}/${exp}/${ref}`;
}

/** An RFC 3339 timestamp → ms since the epoch. */
const ms = (ts: string): number => Date.parse(ts);

/** The kubelet's token cache (token_manager.go Manager). */
export class TokenManager {
  private readonly cache = new Map<string, TokenRequest>();
  private lastCleanupMs: number;

  /**
   * @param getToken the kubelet's CreateToken call
   * @param now simulated clock, ms since the epoch
   * @param jitter the stream the refresh jitter is drawn from (derive one: draws must not shift other names)
   */
  constructor(
    private readonly getToken: GetToken,
    private readonly now: () => number,
    private readonly jitter: Rng,
  ) {
    this.lastCleanupMs = now();
  }

  /**
   * GetServiceAccountToken: the cached token for (namespace, name, tr) unless it requires a
   * refresh, else a new one (cached).
   * @returns the TokenRequest with status.token
   * @throws Error `failed to fetch token: <err>` (nothing cached) or
   *   `token <key> expired and refresh failed: <err>` (see the file comment)
   */
  getServiceAccountToken(namespace: string, name: string, tr: TokenRequest): TokenRequest {
    if (this.now() - this.lastCleanupMs >= GC_PERIOD_MS) this.cleanup();
    const key = keyFunc(name, namespace, tr);
    const ctr = this.cache.get(key);
    if (ctr && !this.requiresRefresh(ctr)) return ctr;
    let fresh: TokenRequest;
    try {
      fresh = this.getToken(name, namespace, tr);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (!ctr) throw new Error(`failed to fetch token: ${msg}`);
      if (this.expired(ctr)) throw new Error(`token ${key} expired and refresh failed: ${msg}`);
      return ctr; // klog.ErrorS "Couldn't update token": the old token is still valid
    }
    this.cache.set(key, fresh);
    return fresh;
  }

  /** The cached answer for (namespace, name, tr), without refreshing it; undefined when none. */
  peek(namespace: string, name: string, tr: TokenRequest): TokenRequest | undefined {
    return this.cache.get(keyFunc(name, namespace, tr));
  }

  /** The kubelet process is gone (power loss): the cache, held in memory, with it. */
  clear(): void {
    this.cache.clear();
  }

  /** DeleteServiceAccountToken: drops every cached token bound to the Pod `podUID`. */
  deleteServiceAccountToken(podUID: string): void {
    for (const [k, tr] of this.cache) if (tr.spec?.boundObjectRef?.uid === podUID) this.cache.delete(k);
  }

  /** cleanup: drops the expired tokens. */
  cleanup(): void {
    this.lastCleanupMs = this.now();
    for (const [k, tr] of this.cache) if (this.expired(tr)) this.cache.delete(k);
  }

  /** Number of cached tokens (tests, the UI). */
  get size(): number {
    return this.cache.size;
  }

  private expired(tr: TokenRequest): boolean {
    return this.now() > ms(tr.status?.expirationTimestamp ?? '');
  }

  /**
   * requiresRefresh (see the file comment). Draws one jitter sample per call.
   * @returns false (upstream logs an error) when the request has no expirationSeconds
   */
  requiresRefresh(tr: TokenRequest): boolean {
    const expSec = tr.spec?.expirationSeconds;
    if (expSec === undefined) return false;
    const now = this.now();
    const exp = ms(tr.status?.expirationTimestamp ?? '');
    const iat = exp - expSec * 1000;
    const jitter = Math.floor(this.jitter.float() * MAX_JITTER_SECONDS);
    if (now > iat + (MAX_TTL_SECONDS - jitter) * 1000) return true;
    // within 20% of the TTL plus a jitter from the expiration time (integer division, as Go's int64)
    if (now > exp - (Math.floor((expSec * 20) / 100) + jitter) * 1000) return true;
    if (now < iat) return true;
    return false;
  }

  /**
   * The earliest simulated ms at which `tr` can require a refresh (the jitter at its largest):
   * the volume manager looks again at the first pod resync from then on.
   */
  earliestRefreshMs(tr: TokenRequest): number {
    const expSec = tr.spec?.expirationSeconds;
    if (expSec === undefined) return Infinity;
    const exp = ms(tr.status?.expirationTimestamp ?? '');
    const iat = exp - expSec * 1000;
    const maxJ = MAX_JITTER_SECONDS - 1;
    return Math.min(iat + (MAX_TTL_SECONDS - maxJ) * 1000, exp - (Math.floor((expSec * 20) / 100) + maxJ) * 1000);
  }
}
