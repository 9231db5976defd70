import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSources } from './sources';

const REAL = fileURLToPath(new URL('./real', import.meta.url));
const sources = parseSources(readFileSync(`${REAL}/SOURCES.md`, 'utf8'));

describe('SOURCES.md table', () => {
  it('names every real manifest exactly once', () => {
    const files = readdirSync(REAL).filter((f) => f.endsWith('.yaml')).sort();
    expect(sources.map((s) => s.file).sort()).toEqual(files);
  });

  it.each([
    { file: 'guestbook-all-in-one.yaml', repository: 'kubernetes/examples @ 279e8e4fe314', url: 'https://github.com/kubernetes/examples', paths: '`web/guestbook/all-in-one/guestbook-all-in-one.yaml`', license: 'Apache-2.0' },
    { file: 'mysql-statefulset-e2e.yaml', repository: 'kubernetes/kubernetes (service @ d7ce957d8a87, statefulset @ 6484e049e60e)', url: 'https://github.com/kubernetes/kubernetes', license: 'Apache-2.0' },
    { file: 'online-boutique.yaml', url: 'https://github.com/GoogleCloudPlatform/microservices-demo', paths: '`release/kubernetes-manifests.yaml`' },
    { file: 'kustomize-helloworld.yaml', paths: '`examples/helloWorld/{configMap,deployment,service}.yaml`' },
  ])('$file', (want) => {
    expect(sources.find((s) => s.file === want.file)).toMatchObject(want);
  });

  it('keeps a | inside backticks in one cell', () => {
    const [s] = parseSources('| `a.yaml` | o/r @ 1 | `x|y` | MIT | shows `a|b` |');
    expect(s).toEqual({ file: 'a.yaml', repository: 'o/r @ 1', url: 'https://github.com/o/r', paths: '`x|y`', license: 'MIT', description: 'shows `a|b`' });
  });
});
