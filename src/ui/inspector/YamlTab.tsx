/**
 * The object as `kubectl get -o yaml` shows it (managedFields left out), in three parts:
 * metadata, spec (the desired state) and status (the current state). `yaml` is a lazy chunk
 * and only stringifies here (parsing stays in the worker).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KObject } from '../store/types';

type Stringify = (typeof import('yaml'))['stringify'];
let stringifyPromise: Promise<Stringify> | null = null;

function useStringify(): Stringify | null {
  const [stringify, setStringify] = useState<Stringify | null>(null);
  useEffect(() => {
    let alive = true;
    (stringifyPromise ??= import('yaml').then((m) => m.stringify)).then((f) => alive && setStringify(() => f));
    return () => {
      alive = false;
    };
  }, []);
  return stringify;
}

interface Part {
  id: string;
  title: string;
  text: string;
}

export function YamlTab({ obj }: { obj: KObject }) {
  const { t } = useTranslation();
  const stringify = useStringify();
  const parts = useMemo((): Part[] => {
    const { metadata, spec, status, apiVersion, kind, ...rest } = obj;
    const { managedFields: _managed, ...meta } = metadata;
    const dump = (v: unknown) => (stringify ? stringify(v, { lineWidth: 0 }) : JSON.stringify(v, null, 2));
    const out: Part[] = [{ id: 'metadata', title: t('inspector.metadata'), text: dump({ apiVersion, kind, metadata: meta, ...rest }) }];
    if (spec !== undefined) out.push({ id: 'spec', title: t('inspector.desired'), text: dump({ spec }) });
    if (status !== undefined) out.push({ id: 'status', title: t('inspector.current'), text: dump({ status }) });
    return out;
  }, [obj, stringify, t]);
  return (
    <div data-testid="inspector-yaml" className="yaml-parts">
      {parts.map((p) => (
        <section key={p.id} className={`yaml-part ${p.id}`}>
          <h3>{p.title}</h3>
          <pre className="yaml">{p.text}</pre>
        </section>
      ))}
    </div>
  );
}
