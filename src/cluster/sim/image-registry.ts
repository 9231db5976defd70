/**
 * The simulated container registry: which image references exist and how large they are.
 * By default every well-formed reference exists; a scenario (`images.missing`) or the user
 * can mark references missing, which makes pulls fail with ErrImagePull as a real registry's
 * "not found" does.
 */

/** Parsed image reference: registry/repository:tag@digest. */
export interface ImageRef {
  registry: string;
  repository: string;
  tag: string;
  digest?: string;
}

/** Parses an image reference as the docker reference library does (docker.io/library default). */
export function parseImageRef(image: string): ImageRef | null {
  const m = image.match(
    /^(?:([a-zA-Z0-9.-]+(?::\d+)?|localhost)\/)?([a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*)(?::([\w][\w.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$/,
  );
  if (!m) return null;
  let registry = m[1];
  let repo = m[2];
  if (registry && !registry.includes('.') && !registry.includes(':') && registry !== 'localhost') {
    repo = `${registry}/${repo}`;
    registry = undefined as unknown as string;
  }
  registry = registry ?? 'docker.io';
  if (registry === 'docker.io' && !repo.includes('/')) repo = `library/${repo}`;
  return { registry, repository: repo, tag: m[3] ?? (m[4] ? '' : 'latest'), digest: m[4] };
}

/** Well-known image sizes in MiB (compressed), for realistic pull times. */
const KNOWN_SIZES: Record<string, number> = {
  'docker.io/library/nginx': 68,
  'docker.io/library/busybox': 2,
  'docker.io/library/mysql': 160,
  'docker.io/library/redis': 45,
  'docker.io/library/perl': 330,
  'docker.io/library/httpd': 55,
  'docker.io/library/alpine': 3,
  'docker.io/library/postgres': 150,
  'registry.k8s.io/pause': 1,
  'registry.k8s.io/coredns/coredns': 16,
  'registry.k8s.io/echoserver': 48,
};

export class ImageRegistry {
  private missing = new Set<string>();

  /** @param missing references that fail to pull ("nginx:1.161"). */
  constructor(missing: string[] = []) {
    for (const m of missing) this.markMissing(m);
  }

  /** Normalized "registry/repository:tag" (or @digest) key. */
  static normalize(image: string): string {
    const r = parseImageRef(image);
    if (!r) return image;
    return `${r.registry}/${r.repository}${r.digest ? '@' + r.digest : ':' + r.tag}`;
  }

  markMissing(image: string): void {
    this.missing.add(ImageRegistry.normalize(image));
  }

  markPresent(image: string): void {
    this.missing.delete(ImageRegistry.normalize(image));
  }

  /** References marked missing, normalized. */
  missingImages(): string[] {
    return [...this.missing].sort();
  }

  /** True when a pull of `image` succeeds. */
  exists(image: string): boolean {
    return parseImageRef(image) !== null && !this.missing.has(ImageRegistry.normalize(image));
  }

  /** Compressed size in MiB (known images, else a stable size from the name: 20–200 MiB). */
  sizeMiB(image: string): number {
    const r = parseImageRef(image);
    if (!r) return 0;
    const known = KNOWN_SIZES[`${r.registry}/${r.repository}`];
    if (known !== undefined) return known;
    let h = 0;
    for (const ch of r.repository) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    return 20 + (h % 180);
  }
}
