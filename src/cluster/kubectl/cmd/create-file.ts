/**
 * `kubectl create -f -` (staging/src/k8s.io/kubectl/pkg/cmd/create/create.go RunCreate): every
 * object of the manifest read from stdin is POSTed as it is (no last-applied annotation), each
 * printed as `<type>/<name> created`; a failed object prints `Error from server (…): error when
 * creating "STDIN": …` and the others still go through, errors in document order (a kind
 * with no mapping included, printed bare among several, `error: …` alone); no object at all
 * is `error: no objects passed to create`.
 */
import { StatusError, kubectlErrorMessage } from '../../api/errors';
import { deepCopy, type KObject } from '../../api/types';
import { withSource } from '../apply';
import { parseManifest } from '../parse';
import { fail, typeName, type Ctx, type KubectlResult } from './util';

/** Runs `kubectl create -f FILE` (only `-`, stdin, exists in the engine). */
export function runCreateFromFile(ctx: Ctx, file: string): KubectlResult {
  if (file !== '-') return fail(`error: the path "${file}" does not exist`);
  const source = 'STDIN';
  const out: string[] = [];
  const errs: string[] = [];
  let count = 0;
  for (const chunk of parseManifest(ctx.env.stdin ?? '')) {
    if (chunk.error !== undefined) {
      errs.push(`error: error parsing ${source}: ${chunk.error}`);
      break;
    }
    const v = chunk.value as KObject;
    const docs = v?.kind === 'List' && Array.isArray((v as { items?: unknown }).items) ? (v as unknown as { items: KObject[] }).items : [v];
    for (const doc of docs) {
      count++;
      const info = ctx.client.api.registry.forKind(String(doc?.apiVersion ?? ''), String(doc?.kind ?? ''));
      const name = String(doc?.metadata?.name ?? '');
      if (!info) {
        errs.push(
          `resource mapping not found for name: "${name}" namespace: "${doc?.metadata?.namespace ?? ''}" from "${source}": no matches for kind "${doc?.kind}" in version "${doc?.apiVersion}"\nensure CRDs are installed first`,
        );
        continue;
      }
      const obj = deepCopy(doc);
      const ns = info.namespaced ? obj.metadata.namespace || ctx.namespace : '';
      if (info.namespaced) obj.metadata.namespace = ns;
      try {
        const created = ctx.client
          .resourceAt(info)
          .create(ns, obj, { fieldManager: 'kubectl-create', summary: `create ${info.kind} ${name}` });
        out.push(`${typeName(info)}/${created.metadata.name} created\n`);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        errs.push(kubectlErrorMessage(withSource(e, 'creating', source)));
      }
    }
  }
  if (!count && !errs.length) return fail('error: no objects passed to create');
  // checkErr: a lone error that is not an API status gets "error: "; in an aggregate (MultipleErrors) each prints bare
  if (errs.length === 1 && !/^(error: |Error from server)/.test(errs[0])) errs[0] = `error: ${errs[0]}`;
  return { output: out.join(''), error: errs.length ? errs.map((x) => `${x}\n`).join('') : null, exitCode: errs.length ? 1 : 0 };
}
