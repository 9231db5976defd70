/**
 * "Acting as" (issue 18): who the learner's requests are made as. The worker holds the truth
 * (ClusterApi.setActingAs, recorded in the session log as `actAs`, so a reload or crash
 * recovery brings it back) and sends it on every batch (`TickBatch.actingAs`); this small store
 * mirrors it for the switcher in the kubectl bar and the toolbar chip. Null: the kubectl user,
 * kubernetes-admin. The helpers are pure (unit-tested in acting-as.test.ts).
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ActingAs, TickBatch } from '../../worker/protocol';
import type { StoredObject } from '../store/types';

/** The kubectl user of the simulated kubeconfig (kubeadm's admin.conf): who "nobody chosen" is. */
export const ADMIN_USER = 'kubernetes-admin';

export interface ActingAsState {
  /** Null: the admin itself. */
  actingAs: ActingAs | null;
}

export const actingAsStore = createStore<ActingAsState>()(() => ({ actingAs: null }));

/** Subscribes a component to the store (module-level selectors, docs/style.md). */
export function useActingAs<T>(selector: (s: ActingAsState) => T): T {
  return useStore(actingAsStore, selector);
}

export const selectActingAs = (s: ActingAsState) => s.actingAs;

/** True when `a` and `b` name the same identity (user and groups in order). */
export function sameIdentity(a: ActingAs | null, b: ActingAs | null): boolean {
  if (a === null || b === null) return a === b;
  return a.user === b.user && a.groups.length === b.groups.length && a.groups.every((g, i) => g === b.groups[i]);
}

/** Folds one worker batch: keeps the store's value unless the identity changed (no re-render per batch). */
export function receiveActingAsBatch(batch: Pick<TickBatch, 'actingAs'>): void {
  if (batch.actingAs === undefined) return; // not sent (attach mode)
  const next = batch.actingAs;
  if (!sameIdentity(actingAsStore.getState().actingAs, next))
    actingAsStore.setState({ actingAs: next ? { user: next.user, groups: [...next.groups] } : null });
}

/**
 * The groups a person typed ("dev, qa  ops"): split on commas and white space, empty pieces
 * dropped, each once in the order first typed.
 */
export function parseGroups(text: string): string[] {
  const out: string[] = [];
  for (const g of text.split(/[\s,]+/)) if (g && !out.includes(g)) out.push(g);
  return out;
}

/**
 * The identity the form names, or null when the user field is empty (nothing to act as).
 * `kubernetes-admin` without groups is the admin itself (null as well: no impersonation).
 */
export function identityFromForm(user: string, groups: string): ActingAs | null | 'empty' {
  const name = user.trim();
  if (!name) return 'empty';
  const gs = parseGroups(groups);
  if (name === ADMIN_USER && gs.length === 0) return null;
  return { user: name, groups: gs };
}

/** `system:serviceaccount:NS:NAME` of a ServiceAccount (serviceaccount.MakeUsername). */
export function serviceAccountUser(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * The ServiceAccounts in the store as usernames, sorted by namespace then name, joined by
 * newlines (a string, so a selector over it re-renders only when the list changes).
 */
export function serviceAccountUsers(objects: ReadonlyMap<string, StoredObject>): string {
  const out: [string, string][] = [];
  for (const o of objects.values()) {
    if (o.object.kind !== 'ServiceAccount' || !o.object.metadata.namespace) continue;
    out.push([o.object.metadata.namespace, o.object.metadata.name]);
  }
  out.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  return out.map(([ns, n]) => serviceAccountUser(ns, n)).join('\n');
}

/** The kubectl flags that make the same requests (`--as=jane --as-group=dev`); empty for the admin. */
export function impersonationFlags(as: ActingAs | null): string {
  if (!as) return '';
  return [`--as=${as.user}`, ...as.groups.map((g) => `--as-group=${g}`)].join(' ');
}
