/** A small async query against the worker, re-run when `deps` change; stale answers are dropped. */
import { useEffect, useState } from 'react';

export type Query<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'error'; message: string };

export function useWorkerQuery<T>(fetch: () => Promise<T>, deps: readonly unknown[]): [Query<T>, () => void] {
  const [q, setQ] = useState<Query<T>>({ state: 'loading' });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    let alive = true;
    fetch().then(
      (value) => alive && setQ({ state: 'done', value }),
      (e: unknown) => alive && setQ({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what the query depends on
  }, [...deps, nonce]);
  return [q, () => setNonce((n) => n + 1)];
}
