/**
 * The state and command lines of src/server/testdata/patch.txt: the objects are applied to
 * `new Cluster()` and settled 600 s before real kubectl (src/cli/record-patch-goldens.ts) or
 * the in-app kubectl (patch.test.ts) runs the commands, in order, on a frozen clock.
 */

/** Objects patched by the recorded commands (namespace default). */
export const PATCH_OBJECTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
      - name: sidecar
        image: busybox:1.36
        command: ["sleep", "3600"]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: dev
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
`;

/** kubectl argument lines, recorded in this order (each sees the state the previous left). */
export const PATCH_COMMANDS = [
  `patch deployment web -p '{"spec":{"replicas":2}}'`,
  `patch deployment web -p '{"spec":{"replicas":2}}'`,
  `patch deployment/web --type=merge -p '{"metadata":{"labels":{"tier":"front"}}}'`,
  `patch deployment web -p '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}'`,
  `get deployment web -o jsonpath={.spec.template.spec.containers[*].image}`,
  `patch deployment web --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/1/image","value":"busybox:1.37"}]'`,
  `patch deployment web --type=json -p '[{"op":"remove","path":"/spec/paused"}]'`,
  `patch deployment web --type=json -p '[{"op":"test","path":"/spec/replicas","value":5}]'`,
  `patch deployment web --type json -p '{"spec":{}}'`,
  `patch deployment web -p '{"spec":{"replicas":-1}}'`,
  `patch deployment web --subresource=scale --type=merge -p '{"spec":{"replicas":3}}'`,
  `patch deployment web --subresource=scale --type=merge -p '{"spec":{"replicas":3}}'`,
  `patch deployment web --subresource=scale --type=merge -p '{"spec":{"replicas":4}}' -o yaml`,
  `patch service web --subresource=status --type=merge -p '{"status":{"loadBalancer":{"ingress":[{"ip":"203.0.113.10"}]}}}'`,
  `get service web -o jsonpath={.status.loadBalancer.ingress[0].ip}`,
  `patch configmap settings --type=merge -p '{"data":{"mode":"prod"}}' -o yaml`,
  `patch configmap settings -p 'data: {mode: prod}' -o name`,
  `patch configmap settings --type=merge -p '{"data":{"mode":"staging"}}' --dry-run=server`,
  `patch configmap settings --type=merge -p '{"data":{"mode":"staging"}}' --dry-run=client`,
  `patch configmap settings --type=merge -p '{"data":{"mode":"staging"}}' --dry-run=client -o json`,
  `patch machine node-2 --type=merge -p '{"spec":{"power":"Off"}}'`,
  `patch machine node-2 -p '{"spec":{"power":"Off"}}'`,
  `patch deployment nope -p '{"spec":{"replicas":1}}'`,
  `patch deployment web`,
  `patch deployment web -p '{bad'`,
  `patch deployment web --type=foo -p '{}'`,
  `patch deployment web --patch-file=patch.json -p '{}'`,
  `patch deployment -p '{}'`,
  `patch deployment web --subresource=foo -p '{}'`,
  `patch pod web --subresource=scale -p '{}'`,
  `patch deployment web -p 'a: b: c'`,
  `patch deployment web --type=json -p '[bad'`,
  `patch node node-1 -p '{"spec":{"unschedulable":true}}'`,
  `patch deployment web nope --type=merge -p '{"metadata":{"annotations":{"a":"b"}}}'`,
  `patch configmap/settings deployment/web --type=merge -p '{"metadata":{"annotations":{"a":"b"}}}'`,
  `patch deployment web --type=JSON -p '[{"op":"add","path":"/metadata/labels/x","value":"y"}]'`,
  `patch configmap settings -n kube-system -p '{"data":{"a":"b"}}'`,
  `patch machine node-3 -p '{"spec":{"power":"Off"}}' --dry-run=client`,
  `patch machine node-3 --type=merge -p '{"spec":{"power":"Off"}}' --dry-run=server`,
  `patch deployment web --local -p '{}'`,
  `patch configmap settings --type=merge -p '{"data":{"mode":"prod"}}' -o name`,
];
