/**
 * The CoreDNS add-on as kubeadm v1.33 installs it (cmd/kubeadm/app/phases/addons/dns/dns.go
 * and manifests.go; version from cmd/kubeadm/app/constants/constants.go CoreDNSVersion):
 * ServiceAccount `coredns`, ClusterRole/ClusterRoleBinding `system:coredns`, the `coredns`
 * ConfigMap with its Corefile, the `coredns` Deployment (2 replicas, label k8s-app=kube-dns)
 * and the `kube-dns` Service at the 10th address of the service CIDR (10.96.0.10).
 */
import type { KObject } from '../api/types';
import { DNS_SERVICE_IP, CLUSTER_DOMAIN } from '../component-helpers/dns';

/** kubeadm's CoreDNS image for Kubernetes v1.33 (constants.go CoreDNSVersion = "v1.12.0"). */
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.12.0';
/** The kubelet's clusterDNS and clusterDomain, re-exported from component-helpers/dns.ts. */
export { DNS_SERVICE_IP, CLUSTER_DOMAIN } from '../component-helpers/dns';

/** The Corefile of kubeadm's `coredns` ConfigMap (manifests.go CoreDNSConfigMap). */
export function corefile(domain = CLUSTER_DOMAIN): string {
  return `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes ${domain} in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success ${domain}
       disable denial ${domain}
    }
    loop
    reload
    loadbalance
}
`;
}

/** Options of {@link dnsBootstrapObjects}. */
export interface DNSBootstrapOptions {
  replicas?: number;
  image?: string;
  domain?: string;
  serviceIP?: string;
}

/**
 * The objects `kubeadm init` (phase addon/coredns) creates, in creation order. Create them as
 * a system client at boot; the PriorityClass system-cluster-critical is built in.
 */
export function dnsBootstrapObjects(opts: DNSBootstrapOptions = {}): KObject[] {
  const ns = 'kube-system';
  const labels = { 'k8s-app': 'kube-dns' };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: ns } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    } as KObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: ns }],
    } as KObject,
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'coredns', namespace: ns },
      data: { Corefile: corefile(opts.domain) },
    } as KObject,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns', namespace: ns, labels },
      spec: {
        replicas: opts.replicas ?? 2,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: 'coredns',
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: {
                      labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] },
                      topologyKey: 'kubernetes.io/hostname',
                    },
                  },
                ],
              },
            },
            tolerations: [
              { key: 'CriticalAddonsOnly', operator: 'Exists' },
              { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [
              {
                name: 'coredns',
                image: opts.image ?? COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                args: ['-conf', '/etc/coredns/Corefile'],
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
                ports: [
                  { containerPort: 53, name: 'dns', protocol: 'UDP' },
                  { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                  { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                  { containerPort: 8080, name: 'liveness-probe', protocol: 'TCP' },
                  { containerPort: 8181, name: 'readiness-probe', protocol: 'TCP' },
                ],
                livenessProbe: {
                  httpGet: { path: '/health', port: 'liveness-probe', scheme: 'HTTP' },
                  initialDelaySeconds: 60,
                  timeoutSeconds: 5,
                  successThreshold: 1,
                  failureThreshold: 5,
                },
                readinessProbe: { httpGet: { path: '/ready', port: 'readiness-probe', scheme: 'HTTP' } },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                },
              },
            ],
            dnsPolicy: 'Default',
            volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
          },
        },
      },
    } as KObject,
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kube-dns',
        namespace: ns,
        labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      },
      spec: {
        clusterIP: opts.serviceIP ?? DNS_SERVICE_IP,
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
        selector: { 'k8s-app': 'kube-dns' },
      },
    } as KObject,
  ];
}
