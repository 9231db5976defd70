/**
 * `kubectl exec`: the shell in the container's files, nslookup through cluster DNS, curl/wget
 * through the data plane, kubectl's notices and errors.
 */
import { NGINX_INDEX } from '../../userland/images/web-servers';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';

const MANIFEST = `apiVersion: v1
kind: Pod
metadata: {name: tools}
spec:
  containers:
  - {name: sh, image: busybox:1.36, command: [sh, -c, "echo hi > /tmp/greeting && sleep 3600"]}
  - {name: web, image: nginx:1.27}
---
apiVersion: v1
kind: Service
metadata: {name: tools}
spec:
  selector: {app: none}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: db}
spec:
  type: ExternalName
  externalName: db.example.com
---
apiVersion: v1
kind: Pod
metadata: {name: pending}
spec:
  nodeSelector: {disk: ssd}
  containers: [{name: app, image: nginx:1.27}]
`;

describe('kubectl exec', () => {
  const c = new Cluster({ seed: 3 });
  c.apply(MANIFEST);
  c.settle(120_000);
  const svcIP = c.get('services', 'default', 'tools')!.spec.clusterIP;
  const podIP = c.get('pods', 'default', 'tools')!.status.podIP;

  it.each([
    {
      name: 'reads a file the container wrote (default container, with the notice)',
      line: 'exec tools -- cat /tmp/greeting',
      output: 'hi\n',
      error: 'Defaulted container "sh" out of: sh, web\n',
      code: 0,
    },
    {
      name: 'writes and removes files with -c',
      line: 'exec tools -c sh -- sh -c "echo x > /tmp/f && rm /tmp/greeting && ls /tmp"',
      output: 'f\n',
      error: null,
      code: 0,
    },
    {
      name: 'non-zero exit: command terminated with exit code',
      line: 'exec tools -c sh -- cat /nope',
      output: "cat: can't open '/nope': No such file or directory\n",
      error: 'command terminated with exit code 1\n',
      code: 1,
    },
    {
      name: 'nslookup a Service',
      line: 'exec tools -c sh -- nslookup kubernetes.default',
      output: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n',
      error: null,
      code: 0,
    },
    {
      name: 'nslookup an ExternalName Service: the CNAME',
      line: 'exec tools -c sh -- nslookup db',
      output: 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\ndb.default.svc.cluster.local\tcanonical name = db.example.com.\n\n',
      error: null,
      code: 0,
    },
    {
      name: 'nslookup NXDOMAIN',
      line: 'exec tools -c sh -- nslookup nope',
      output: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nope: NXDOMAIN\n\n",
      error: 'command terminated with exit code 1\n',
      code: 1,
    },
    {
      name: 'curl a Pod IP directly (nginx listens on 80): its welcome page',
      line: () => `exec tools -c sh -- curl -s http://${podIP}/`,
      output: NGINX_INDEX,
      error: null,
      code: 0,
    },
    {
      name: 'curl -f a path nginx has no file for: 404, exit 22',
      line: () => `exec tools -c sh -- curl -sSf http://${podIP}/healthz`,
      output: '',
      error: 'curl: (22) The requested URL returned error: 404\ncommand terminated with exit code 22\n',
      code: 22,
    },
    {
      name: 'wget a path nginx has no file for',
      line: () => `exec tools -c sh -- wget -qO- http://${podIP}/nope`,
      output: '',
      error: 'wget: server returned error: HTTP/1.1 404 Not Found\ncommand terminated with exit code 1\n',
      code: 1,
    },
    {
      name: 'curl a Service without endpoints (-sS shows the error)',
      line: 'exec tools -c sh -- curl -sS http://tools',
      output: '',
      error: () =>
        `curl: (7) Failed to connect to ${svcIP} port 80 after 0 ms: Couldn't connect to server\ncommand terminated with exit code 7\n`,
      code: 7,
    },
    {
      name: 'curl an unknown name',
      line: 'exec tools -c sh -- curl http://nope',
      output: '',
      error: 'curl: (6) Could not resolve host: nope\ncommand terminated with exit code 6\n',
      code: 6,
    },
    { name: 'wget -qO- a Pod IP', line: () => `exec tools -c sh -- wget -qO- http://${podIP}`, output: NGINX_INDEX, error: null, code: 0 },
    {
      name: 'a Pod that is not running',
      line: 'exec pending -- ls',
      output: '',
      error: 'error: unable to upgrade connection: container not found ("app")\n',
      code: 1,
    },
    {
      name: 'an unknown container',
      line: 'exec tools -c nope -- ls',
      output: '',
      error: 'error: unable to upgrade connection: container nope not found in pod tools_default\n',
      code: 1,
    },
    {
      name: 'no command',
      line: 'exec tools',
      output: '',
      error: 'error: you must specify at least one command for the container\n',
      code: 1,
    },
    { name: 'unknown Pod', line: 'exec ghost -- ls', output: '', error: 'Error from server (NotFound): pods "ghost" not found\n', code: 1 },
  ])('$name', ({ line, output, error, code }) => {
    const r = c.kubectl(typeof line === 'function' ? line() : line);
    expect(r.output).toBe(output);
    expect(r.error).toBe(typeof error === 'function' ? error() : error);
    expect(r.exitCode).toBe(code);
  });
});
