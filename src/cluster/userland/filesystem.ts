/**
 * A container's simulated filesystem: the container's own writable layer (overlayfs upper dir
 * on a real node) plus its volume mounts, resolved by the longest matching mountPath as the
 * kernel's mount table does (pkg/kubelet/kubelet_pods.go makeMounts decides what is mounted
 * where). Only what the shell interpreter needs: files with text content and directories.
 *
 * A {@link FileStore} is one tree of files — a container layer, an emptyDir shared by the
 * Pod's containers, a configMap/secret projection, or a PersistentVolumeClaim's data that
 * outlives the Pod (volumes.ts). Paths inside a store are absolute from the store's root.
 */

/** One tree of files and directories (paths like "/a/b", root "/"). */
export class FileStore {
  readonly files = new Map<string, string>();
  readonly dirs = new Set<string>(['/']);
}

/** A volume mounted into a container at `path`. */
export interface Mount {
  path: string;
  store: FileStore;
  readOnly?: boolean;
  /** sub-directory of the store mounted (volumeMounts[].subPath), "" for the root */
  subPath?: string;
}

/** Normalizes a path against `cwd` ("." and ".." resolved, no trailing slash). */
export function normalizePath(p: string, cwd = '/'): string {
  const parts: string[] = [];
  for (const seg of (p.startsWith('/') ? p : `${cwd}/${p}`).split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** Directories every image has (busybox's layout). */
const BASE_DIRS = ['/bin', '/dev', '/etc', '/home', '/proc', '/root', '/sys', '/tmp', '/usr', '/usr/bin', '/var', '/var/log', '/var/run'];

/** Files the kubelet writes for every container (mounted from the Pod's directory on a real node). */
export interface KubeletManagedFiles {
  /** /etc/hosts (managedHostsFileContent) */
  hosts?: string;
  /** /etc/resolv.conf (the sandbox's DNS config, component-helpers/dns.ts podDNSConfig) */
  resolvConf?: string;
}

/** What a hostAlias of the Pod spec holds. */
interface HostAlias {
  ip?: string;
  hostnames?: string[];
}

/**
 * The kubelet-managed /etc/hosts of a Pod (pkg/kubelet/kubelet_pods.go
 * managedHostsFileContent): the header, localhost and IPv6 lines, the Pod's IP with its
 * hostname (as `IP\thostname.subdomain.ns.svc.cluster.local\thostname` when spec.subdomain is
 * set), then spec.hostAliases under `# Entries added by HostAliases.`.
 */
export function managedHostsFile(podIPs: string[], hostName: string, hostDomainName: string, hostAliases: HostAlias[] = []): string {
  let out = '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';
  out += 'fe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n';
  for (const ip of podIPs) out += hostDomainName ? `${ip}\t${hostName}.${hostDomainName}\t${hostName}\n` : `${ip}\t${hostName}\n`;
  if (hostAliases.length) {
    out += '\n# Entries added by HostAliases.\n';
    for (const a of hostAliases) out += `${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}\n`;
  }
  return out;
}

/** A container's view: its own layer plus mounts. */
export class ContainerFS {
  readonly layer = new FileStore();
  private mounts: Mount[];

  constructor(mounts: Mount[] = [], hostname = '', managed: KubeletManagedFiles = {}) {
    for (const d of BASE_DIRS) this.layer.dirs.add(d);
    this.layer.files.set('/etc/hostname', hostname + '\n');
    this.layer.files.set('/etc/hosts', managed.hosts ?? `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n`);
    if (managed.resolvConf !== undefined) this.layer.files.set('/etc/resolv.conf', managed.resolvConf);
    this.mounts = mounts.map((m) => ({ ...m, path: normalizePath(m.path) })).sort((a, b) => b.path.length - a.path.length);
    for (const m of this.mounts) {
      let d = m.path;
      while (d !== '/') {
        this.layer.dirs.add(d);
        d = parentOf(d);
      }
      const root = m.subPath ? normalizePath(m.subPath) : '/';
      this.addDirs(m.store, root);
    }
  }

  private addDirs(store: FileStore, p: string): void {
    while (p !== '/') {
      store.dirs.add(p);
      p = parentOf(p);
    }
  }

  /** Which store holds `path` and the path inside it. */
  resolve(path: string): { store: FileStore; rel: string; readOnly: boolean } {
    const p = normalizePath(path);
    for (const m of this.mounts) {
      if (p === m.path || p.startsWith(m.path + '/')) {
        const base = m.subPath ? normalizePath(m.subPath) : '';
        return { store: m.store, rel: normalizePath(base + p.slice(m.path.length)), readOnly: !!m.readOnly };
      }
    }
    return { store: this.layer, rel: p, readOnly: false };
  }

  isFile(path: string): boolean {
    if (path === '/dev/null') return true;
    const r = this.resolve(path);
    return r.store.files.has(r.rel);
  }

  isDir(path: string): boolean {
    const r = this.resolve(path);
    return r.store.dirs.has(r.rel);
  }

  exists(path: string): boolean {
    return this.isFile(path) || this.isDir(path);
  }

  read(path: string): string | undefined {
    if (path === '/dev/null') return '';
    const r = this.resolve(path);
    return r.store.files.get(r.rel);
  }

  /** Writes (or appends to) a file. Returns an errno-style reason on failure. */
  write(path: string, data: string, append = false): 'ENOENT' | 'EISDIR' | 'EROFS' | null {
    if (normalizePath(path) === '/dev/null') return null;
    const r = this.resolve(path);
    if (r.store.dirs.has(r.rel)) return 'EISDIR';
    if (r.readOnly) return 'EROFS';
    if (!r.store.dirs.has(parentOf(r.rel))) return 'ENOENT';
    r.store.files.set(r.rel, (append ? (r.store.files.get(r.rel) ?? '') : '') + data);
    return null;
  }

  /** mkdir; with `parents`, like mkdir -p. */
  mkdir(path: string, parents: boolean): 'ENOENT' | 'EEXIST' | 'EROFS' | null {
    const r = this.resolve(path);
    if (r.store.dirs.has(r.rel)) return parents ? null : 'EEXIST';
    if (r.store.files.has(r.rel)) return 'EEXIST';
    if (r.readOnly) return 'EROFS';
    if (!parents && !r.store.dirs.has(parentOf(r.rel))) return 'ENOENT';
    this.addDirs(r.store, r.rel);
    return null;
  }

  /** rm; `recursive` removes directories with their content. */
  remove(path: string, recursive: boolean): 'ENOENT' | 'EISDIR' | 'EROFS' | null {
    const r = this.resolve(path);
    if (r.store.files.has(r.rel)) {
      if (r.readOnly) return 'EROFS';
      r.store.files.delete(r.rel);
      return null;
    }
    if (!r.store.dirs.has(r.rel)) return 'ENOENT';
    if (!recursive) return 'EISDIR';
    if (r.readOnly) return 'EROFS';
    const prefix = r.rel === '/' ? '/' : r.rel + '/';
    for (const f of [...r.store.files.keys()]) if (f.startsWith(prefix)) r.store.files.delete(f);
    for (const d of [...r.store.dirs]) if (d.startsWith(prefix)) r.store.dirs.delete(d);
    if (r.rel !== '/') r.store.dirs.delete(r.rel);
    return null;
  }

  /** Names directly inside a directory, sorted. */
  list(path: string): string[] {
    const r = this.resolve(path);
    const prefix = r.rel === '/' ? '/' : r.rel + '/';
    const out = new Set<string>();
    for (const k of [...r.store.files.keys(), ...r.store.dirs]) {
      if (k.startsWith(prefix) && k.length > prefix.length) out.add(k.slice(prefix.length).split('/')[0]);
    }
    const p = normalizePath(path);
    for (const m of this.mounts) if (parentOf(m.path) === p) out.add(m.path.slice(m.path.lastIndexOf('/') + 1));
    return [...out].sort();
  }
}
