/**
 * The sandbox's image registry: the images a simulated node can pull and
 * how their containers behave. Web servers (nginx, httpd, the sample apps)
 * start, print what they print and stay up serving a page; OS images
 * (busybox, alpine, ubuntu, debian) run their command through the tiny
 * shell and exit when it ends; `pause` waits. A reference is normalized as
 * containerd does (`nginx` is `docker.io/library/nginx:latest`); an image
 * that is not here, or a tag its repository does not have, fails to pull
 * with containerd's messages, so `ErrImagePull` shows as on a cluster.
 */

export type ShellKind = 'busybox' | 'gnu' | 'none';

export interface WebPage {
  status: number;
  body: string;
  contentType: string;
}

export interface ImageSpec {
  /** The repository, normalized (`docker.io/library/nginx`). */
  repository: string;
  /** Whether a tag exists in the repository. */
  hasTag(tag: string): boolean;
  /** ENTRYPOINT and CMD of the image config. */
  entrypoint: string[];
  cmd: string[];
  /** The userland a shell (and exec) finds; `none` for images without a shell. */
  shell: ShellKind;
  /** Programs beyond the userland (the server, perl, curl). */
  programs: string[];
  /** `/etc/os-release` PRETTY_NAME. */
  os: string;
  sizeBytes: number;
  /** What the image serves, for probes and `curl localhost`: its port and pages. */
  web?: { port: number; page(path: string, hostname: string): WebPage };
  /** The image's `PATH` and other environment of its config. */
  env: [string, string][];
  workingDir?: string;
}

export interface ImageRef {
  /** As written in the pod spec. */
  reference: string;
  /** `docker.io/library/nginx:latest`. */
  normalized: string;
  repository: string;
  tag: string;
}

const standardPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The image reference as containerd normalizes it. */
export function normalizeImage(reference: string): ImageRef {
  let rest = reference.trim();
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at);
    rest = rest.slice(0, at);
  }
  let tag = '';
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const first = rest.split('/')[0] ?? '';
  const hasRegistry =
    rest.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  let repository = hasRegistry ? rest : `docker.io/${rest}`;
  if (/^docker\.io\/[^/]+$/.test(repository))
    repository = repository.replace('docker.io/', 'docker.io/library/');
  if (tag === '' && digest === '') tag = 'latest';
  return { reference, normalized: `${repository}${tag !== '' ? `:${tag}` : ''}${digest}`, repository, tag };
}

const nginxPage = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

const notFound = (server: string): WebPage => ({
  status: 404,
  contentType: 'text/html',
  body: `<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`,
});

const tags = {
  /** `latest`, named channels, and versions `1.N[.P][-variant]` with N up to `maxMinor` (and a bare `1`). */
  versions(maxMinor: number, named: string[] = []): (tag: string) => boolean {
    return (tag) => {
      if (tag === 'latest' || named.includes(tag)) return true;
      const m = /^1(?:\.(\d+))?(?:\.\d{1,2})?(?:-[a-z0-9.]+)?$/.exec(tag);
      return m !== null && Number(m[1] ?? '0') <= maxMinor;
    };
  },
};

const images: ImageSpec[] = [
  {
    repository: 'docker.io/library/nginx',
    // 1.0 … 1.27 exist; `nginx:1.161` (the Deployment tutorial's typo) does not.
    hasTag: (t) =>
      ['latest', 'stable', 'mainline', 'alpine', 'alpine-slim', 'perl', 'bookworm'].includes(t) ||
      /^1(\.(\d|1\d|2[0-7])(\.\d{1,2})?)?(-[a-z0-9.-]+)?$/.test(t),
    entrypoint: ['/docker-entrypoint.sh'],
    cmd: ['nginx', '-g', 'daemon off;'],
    shell: 'gnu',
    programs: ['/docker-entrypoint.sh', 'nginx', 'curl'],
    os: 'Debian GNU/Linux 12 (bookworm)',
    sizeBytes: 70_544_635,
    web: {
      port: 80,
      page: (path) =>
        path === '/' || path === '/index.html'
          ? { status: 200, contentType: 'text/html', body: nginxPage }
          : notFound('nginx/1.25.3'),
    },
    env: [
      ['PATH', standardPath],
      ['NGINX_VERSION', '1.25.3'],
      ['NJS_VERSION', '0.8.2'],
      ['PKG_RELEASE', '1~bookworm'],
    ],
  },
  {
    repository: 'docker.io/library/httpd',
    hasTag: (t) => t === 'latest' || t === 'alpine' || /^2(\.4(\.\d+)?)?(-alpine)?$/.test(t),
    entrypoint: [],
    cmd: ['httpd-foreground'],
    shell: 'gnu',
    programs: ['httpd-foreground', 'curl'],
    os: 'Debian GNU/Linux 12 (bookworm)',
    sizeBytes: 60_683_123,
    web: {
      port: 80,
      page: (path) =>
        path === '/' || path === '/index.html'
          ? { status: 200, contentType: 'text/html', body: '<html><body><h1>It works!</h1></body></html>\n' }
          : {
              status: 404,
              contentType: 'text/html',
              body: `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n`,
            },
    },
    env: [
      ['PATH', `/usr/local/apache2/bin:${standardPath}`],
      ['HTTPD_PREFIX', '/usr/local/apache2'],
      ['HTTPD_VERSION', '2.4.58'],
    ],
    workingDir: '/usr/local/apache2',
  },
  {
    repository: 'docker.io/library/busybox',
    hasTag: tags.versions(36, ['musl', 'glibc', 'uclibc', 'stable']),
    entrypoint: [],
    cmd: ['sh'],
    shell: 'busybox',
    programs: ['wget'],
    os: 'BusyBox',
    sizeBytes: 2_155_000,
    env: [['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']],
  },
  {
    repository: 'docker.io/library/alpine',
    hasTag: (t) => ['latest', 'edge'].includes(t) || /^3(\.(\d|1\d|20))?(\.\d+)?$/.test(t),
    entrypoint: [],
    cmd: ['/bin/sh'],
    shell: 'busybox',
    programs: ['wget'],
    os: 'Alpine Linux v3.18',
    sizeBytes: 3_401_613,
    env: [['PATH', standardPath]],
  },
  {
    repository: 'docker.io/library/ubuntu',
    hasTag: (t) =>
      ['latest', 'rolling', 'jammy', 'focal', 'noble', 'bionic'].includes(t) ||
      /^(1[4-9]|2[0-4])\.(04|10)$/.test(t),
    entrypoint: [],
    cmd: ['/bin/bash'],
    shell: 'gnu',
    programs: [],
    os: 'Ubuntu 22.04.3 LTS',
    sizeBytes: 29_549_000,
    env: [['PATH', standardPath]],
  },
  {
    repository: 'docker.io/library/debian',
    hasTag: (t) =>
      ['latest', 'stable', 'bookworm', 'bullseye', 'buster', 'bookworm-slim', 'bullseye-slim'].includes(t) ||
      /^(9|1[0-2])(\.\d+)?$/.test(t),
    entrypoint: [],
    cmd: ['bash'],
    shell: 'gnu',
    programs: [],
    os: 'Debian GNU/Linux 12 (bookworm)',
    sizeBytes: 49_557_601,
    env: [['PATH', standardPath]],
  },
  {
    repository: 'registry.k8s.io/pause',
    hasTag: (t) => t === 'latest' || /^3\.[0-9]$/.test(t),
    entrypoint: ['/pause'],
    cmd: [],
    shell: 'none',
    programs: ['/pause'],
    os: '',
    sizeBytes: 320_368,
    env: [['PATH', standardPath]],
  },
  {
    repository: 'docker.io/library/perl',
    hasTag: (t) => t === 'latest' || /^5(\.\d+)?(\.\d+)?(-slim)?$/.test(t),
    entrypoint: [],
    cmd: ['perl', '-de0'],
    shell: 'gnu',
    programs: ['perl'],
    os: 'Debian GNU/Linux 12 (bookworm)',
    sizeBytes: 321_488_000,
    env: [['PATH', standardPath]],
  },
  {
    repository: 'docker.io/library/hello-world',
    hasTag: (t) => t === 'latest' || t === 'linux',
    entrypoint: [],
    cmd: ['/hello'],
    shell: 'none',
    programs: ['/hello'],
    os: '',
    sizeBytes: 13_256,
    env: [['PATH', standardPath]],
  },
  {
    repository: 'gcr.io/google-samples/hello-app',
    hasTag: (t) => t === '1.0' || t === '2.0',
    entrypoint: ['./hello-app'],
    cmd: [],
    shell: 'busybox',
    programs: ['./hello-app'],
    os: 'Alpine Linux v3.18',
    sizeBytes: 4_612_000,
    web: {
      port: 8080,
      page: (_path, hostname) => ({
        status: 200,
        contentType: 'text/plain',
        body: `Hello, world!\nVersion: 1.0.0\nHostname: ${hostname}\n`,
      }),
    },
    env: [['PATH', standardPath]],
  },
  {
    repository: 'registry.k8s.io/e2e-test-images/agnhost',
    hasTag: (t) => /^2\.\d+$/.test(t),
    entrypoint: ['/agnhost'],
    cmd: ['pause'],
    shell: 'busybox',
    programs: ['/agnhost'],
    os: 'Alpine Linux v3.18',
    sizeBytes: 51_000_000,
    web: {
      port: 8080,
      page: (path, hostname) =>
        path === '/hostname'
          ? { status: 200, contentType: 'text/plain', body: hostname }
          : { status: 200, contentType: 'text/plain', body: 'ok' },
    },
    env: [['PATH', standardPath]],
  },
  {
    repository: 'registry.k8s.io/echoserver',
    hasTag: (t) => /^1\.\d+$/.test(t),
    entrypoint: [],
    cmd: ['nginx', '-g', 'daemon off;'],
    shell: 'gnu',
    programs: ['nginx'],
    os: 'Ubuntu 16.04 LTS',
    sizeBytes: 46_000_000,
    web: {
      port: 8080,
      page: (path, hostname) => ({
        status: 200,
        contentType: 'text/plain',
        body: `\n\nHostname: ${hostname}\n\nRequest Information:\n\tmethod=GET\n\treal path=${path}\n\tquery=\n\trequest_version=1.1\n`,
      }),
    },
    env: [['PATH', standardPath]],
  },
  {
    repository: 'docker.io/library/redis',
    hasTag: (t) => ['latest', 'alpine'].includes(t) || /^[67](\.\d)?(\.\d+)?(-alpine)?$/.test(t),
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['redis-server'],
    shell: 'gnu',
    programs: ['docker-entrypoint.sh', 'redis-server', 'redis-cli'],
    os: 'Debian GNU/Linux 12 (bookworm)',
    sizeBytes: 138_000_000,
    env: [
      ['PATH', standardPath],
      ['REDIS_VERSION', '7.2.3'],
    ],
    workingDir: '/data',
  },
];

/** Repositories that are other names of ones above (old registries, mirrors). */
const aliases: Record<string, string> = {
  'k8s.gcr.io/pause': 'registry.k8s.io/pause',
  'k8s.gcr.io/echoserver': 'registry.k8s.io/echoserver',
  'k8s.gcr.io/e2e-test-images/agnhost': 'registry.k8s.io/e2e-test-images/agnhost',
  'registry.k8s.io/busybox': 'docker.io/library/busybox',
  'k8s.gcr.io/busybox': 'docker.io/library/busybox',
  'gcr.io/google-containers/busybox': 'docker.io/library/busybox',
  'registry.k8s.io/e2e-test-images/busybox': 'docker.io/library/busybox',
  'registry.k8s.io/e2e-test-images/nginx': 'docker.io/library/nginx',
  'docker.io/nginxinc/nginx-unprivileged': 'docker.io/library/nginx',
  'public.ecr.aws/nginx/nginx': 'docker.io/library/nginx',
  'quay.io/prometheus/busybox': 'docker.io/library/busybox',
};

const byRepository = new Map(images.map((i) => [i.repository, i]));

export type PullResult =
  { ok: true; image: ImageSpec; ref: ImageRef } | { ok: false; ref: ImageRef; message: string };

/** What pulling `reference` gives: the image, or containerd's failure as the kubelet reports it. */
export function pullImage(reference: string): PullResult {
  const ref = normalizeImage(reference);
  const image = byRepository.get(aliases[ref.repository] ?? ref.repository);
  if (reference.trim() === '' || /[A-Z\s]/.test(ref.repository))
    return {
      ok: false,
      ref,
      message: `rpc error: code = InvalidArgument desc = failed to pull and unpack image "${reference}": failed to resolve reference "${reference}": invalid reference format`,
    };
  if (image === undefined)
    return {
      ok: false,
      ref,
      message: `rpc error: code = Unknown desc = failed to pull and unpack image "${ref.normalized}": failed to resolve reference "${ref.normalized}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`,
    };
  if (ref.tag !== '' && !image.hasTag(ref.tag))
    return {
      ok: false,
      ref,
      message: `rpc error: code = NotFound desc = failed to pull and unpack image "${ref.normalized}": failed to resolve reference "${ref.normalized}": ${ref.normalized}: not found`,
    };
  return { ok: true, image, ref };
}

/** A stable hex digest of a text (64 characters), for image and container IDs that look like containerd's. */
export function fakeDigest(text: string): string {
  let out = '';
  for (let seed = 0; out.length < 64; seed++) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

/** The image ID a container status shows: `docker.io/library/nginx@sha256:…`. */
export function imageID(ref: ImageRef): string {
  return `${ref.repository}@sha256:${fakeDigest(ref.normalized)}`;
}

/** The images every node has from the start (the sandbox image of each pod). */
export const preloadedImages = ['registry.k8s.io/pause:3.9'];
