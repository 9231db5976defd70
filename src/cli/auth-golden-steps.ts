/**
 * The kubectl command lines of testdata/auth.txt, in order (recorded by
 * src/cli/record-auth-goldens.ts, replayed by src/server/auth-goldens.test.ts). Quoted words
 * ('*') are one argument, as a shell passes them.
 */
export const AUTH_STEPS: readonly string[] = [
  'auth whoami',
  'auth whoami --as jane --as-group devs',
  'auth whoami -o yaml',
  'auth can-i create pods',
  "auth can-i '*' '*'",
  'auth can-i list secrets --as jane',
  'auth can-i --list --as jane',
  'auth can-i get nodes --as system:node:node-1',
  'auth can-i get nodes/node-1 --as system:node:node-1 --as-group system:nodes',
  'auth can-i get nodes/node-2 --as system:node:node-1 --as-group system:nodes',
  'auth can-i list nodes --as system:node:node-1 --as-group system:nodes',
  'get nodes --as system:node:node-1 --as-group system:nodes',
  'get nodes node-2 --as system:node:node-1 --as-group system:nodes',
  'get nodes --field-selector metadata.name=node-1 -o name --as system:node:node-1 --as-group system:nodes',
  'get pods --as jane',
  'auth can-i list pods --as jane -n default',
  'create role pod-reader --verb=get,list,watch --resource=pods',
  'create rolebinding jane-pod-reader --role=pod-reader --user=jane',
  'get pods --as jane',
  'auth can-i list pods --as jane -n default',
  'auth can-i list pods --as jane -n kube-system',
  'auth can-i --list --as jane -n default',
  'get pods -n kube-system --as jane',
];
