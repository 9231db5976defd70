/**
 * `npx tsx src/cli/record-token-goldens.ts` — drives the REAL kubectl against the engine served
 * in-process (src/server): `kubectl create token` (default, --duration, -n, --audience, -o,
 * bound to a Pod, its flag errors and the server's 422/404/400/409), then the tokens used with
 * `--token` (auth whoami, a 403, a 401). Writes src/server/testdata/token.txt (JWTs masked as
 * `<jwt>`, src/server/golden.ts); src/server/token-goldens.test.ts replays it without kubectl.
 */
import { join, resolve } from 'node:path';
import { TOKEN_STEPS, lastToken } from './token-golden-steps';
import { recordTranscript } from './record-transcript';

const ROOT = resolve(import.meta.dirname, '../..');

/** Splits a line as a shell would for these lines: words, quoted words kept together. */
const argv = (line: string) => (line.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((a) => a.replace(/^(['"])(.*)\1$/, '$2'));

await recordTranscript({
  steps: TOKEN_STEPS,
  argv,
  expand: (line, raws) => line.replace('$T', lastToken(TOKEN_STEPS, raws)),
  out: join(ROOT, 'src/server/testdata/token.txt'),
  title:
    'kubectl create token with real kubectl: durations, audiences, -o, a Pod-bound token, flag and server errors, then --token (auth whoami, a 403, a 401) (recorded by src/cli/record-token-goldens.ts)',
});
