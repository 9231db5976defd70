/**
 * The kubectl command lines of testdata/token.txt, in order (recorded by
 * src/cli/record-token-goldens.ts, replayed by src/server/token-goldens.test.ts). `$T` is the
 * token the last `create token` line before it printed (its first output line); quoted words
 * ('') are one argument, as a shell passes them.
 */
export const TOKEN_STEPS: readonly string[] = [
  'create token default',
  'create token --duration 10m default',
  'create token default -n kube-system --duration=1h',
  'create token -n kube-system default',
  "create token default -o ''",
  'create token default -o name',
  'create token default --audience https://example.com --audience api -o yaml',
  'create token default --duration 4294967296s -o json',
  'create token default --duration 4294967297s',
  'create token default --duration 5m',
  'create token default --duration 1.5s',
  'create token default --duration x',
  'create token default --duration=-1s',
  'create token',
  'create token a b',
  'create token nosuch',
  'create token default --audience ""',
  'create token default -o wide',
  'create token default --bound-object-name web',
  'create token default --bound-object-kind Pod',
  'create token default --bound-object-kind ConfigMap --bound-object-name x',
  'create token default --bound-object-kind Pod --bound-object-name web',
  'run web --image=nginx',
  'wait --for=condition=PodScheduled pod/web',
  'create token default --bound-object-kind Pod --bound-object-name web --bound-object-uid 0000 -o yaml',
  'create token default --bound-object-kind Pod --bound-object-name web -o yaml',
  'create token default --bound-object-kind Pod --bound-object-name web',
  'auth whoami --token=$T',
  'create token default',
  'auth whoami --token=$T',
  'get pods --token=$T',
  'auth can-i list pods --token=$T',
  'get pods --token=not-a-token',
];

/** The token of the last `create token` line before step `i` (its first output line), or "". */
export function lastToken(steps: readonly string[], outputs: readonly string[]): string {
  for (let i = outputs.length - 1; i >= 0; i--)
    if (steps[i].startsWith('create token') && !steps[i].includes(' -o ')) return outputs[i].split('\n')[0].trim();
  return '';
}
