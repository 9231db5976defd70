/**
 * The one Kubernetes release the engine plays: what kube-apiserver's /version returns
 * (k8s.io/apimachinery/pkg/version.Info, values of the official v1.33.1 build), and so what
 * `kubectl version` prints as the server (and, here, client) version and every Node's
 * status.nodeInfo.kubeletVersion / kubeProxyVersion.
 */
export const VERSION_INFO = {
  major: '1',
  minor: '33',
  emulationMajor: '1',
  emulationMinor: '33',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '32',
  gitVersion: 'v1.33.1',
  gitCommit: '8adc0f041b8e7ad1d30e29cc59c6ae7a15e19828',
  gitTreeState: 'clean',
  buildDate: '2025-05-15T08:19:08Z',
  goVersion: 'go1.24.2',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

/** `v1.33.1`: the server, kubelet and kubectl version. */
export const KUBERNETES_GIT_VERSION = VERSION_INFO.gitVersion;
