/**
 * `npx tsx src/cli/record-patch-goldens.ts [PORT]` — records src/server/testdata/patch.txt: the
 * REAL kubectl (v1.32 on PATH) running the `kubectl patch` lines of
 * src/cluster/kubectl/cmd/patch.fixture.ts in order against the engine served in-process, with
 * the fixture's objects applied and settled 600 s BEFORE the server starts and the clock
 * frozen (speed 0), so src/cluster/kubectl/cmd/patch.test.ts can rebuild the same state with
 * `new Cluster()` and replay every line through the in-app kubectl.
 */
import { PATCH_COMMANDS, PATCH_OBJECTS } from '../cluster/kubectl/cmd/patch.fixture';
import { recordFrozenGoldens } from './record-frozen-goldens';

const port = Number(process.argv[2] ?? 0);

await recordFrozenGoldens({
  objects: PATCH_OBJECTS,
  commands: PATCH_COMMANDS,
  out: 'src/server/testdata/patch.txt',
  title:
    'kubectl patch against src/cluster/kubectl/cmd/patch.fixture.ts, applied in-process and settled 600 s, clock frozen (recorded by src/cli/record-patch-goldens.ts; real kubectl)',
  port,
});
