import { it } from 'vitest';
import { runSequence } from './invariants';
it('p', () => {
  const r = runSequence(1, [{"op":"apply","dep":0,"replicas":0,"maxSurge":0,"maxUnavailable":"100%","tag":0},{"op":"apply","dep":0,"replicas":1,"maxSurge":0,"maxUnavailable":"50%","tag":0},{"op":"killNode","node":4},{"op":"addNode"}]);
  console.log(r.violation, r.log.join('\n'));
});
