/**
 * Any request the UI sent, as a command for the Node host (`npm run serve`
 * prints its URL; `--kubeconfig FILE` writes the kubeconfig kubectl reads):
 * `curl` always, and `kubectl` where it has a matching verb (`get --raw`,
 * `create/replace/delete --raw`, `apply --server-side`, `patch`). The texts
 * are for a POSIX shell; bodies travel in quoted here-documents so nothing
 * in them is expanded.
 */

export interface NodeHostTarget {
  /** The Node host's URL, e.g. `http://127.0.0.1:6443`. */
  url: string;
  /** Path of the kubeconfig written with `--kubeconfig`. */
  kubeconfig: string;
  /** A bearer token for curl, when the host requires one. */
  token?: string;
}

export interface CommandRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/namespaces?limit=5`. */
  path: string;
  headers: [string, string][];
  body?: string;
}

export const defaultNodeHost: NodeHostTarget = {
  url: 'http://127.0.0.1:6443',
  kubeconfig: './orch.kubeconfig',
};

// Headers the browser or fetch adds on its own; a command line need not repeat them.
const implicitHeaders = new Set([
  'user-agent',
  'content-length',
  'host',
  'connection',
  'accept-encoding',
  'origin',
  'referer',
]);

export function curlCommand(request: CommandRequest, target: NodeHostTarget): string {
  const url = target.url.replace(/\/+$/, '') + request.path;
  const lines = [`curl -sS${isWatch(request.path) ? 'N' : ''} -X ${request.method} ${quote(url)}`];
  for (const [name, value] of request.headers) {
    if (implicitHeaders.has(name.toLowerCase())) continue;
    lines.push(`-H ${quote(`${canonical(name)}: ${value}`)}`);
  }
  if (target.token !== undefined && target.token !== '')
    lines.push(`-H ${quote(`Authorization: Bearer ${target.token}`)}`);
  if (request.body !== undefined && request.body !== '') lines.push('--data-binary @-');
  return withBody(lines.join(' \\\n  '), request.body);
}

/** The kubectl command, or undefined when kubectl has no verb that sends this request. */
export function kubectlCommand(request: CommandRequest, target: NodeHostTarget): string | undefined {
  const base = `kubectl --kubeconfig ${quote(target.kubeconfig)}`;
  const method = request.method.toUpperCase();
  const contentType = header(request, 'content-type') ?? '';
  const url = new URL(request.path, 'http://x');
  const query = url.searchParams;
  switch (method) {
    case 'GET':
      return `${base} get --raw ${quote(request.path)}`;
    case 'POST':
      return withBody(`${base} create --raw ${quote(request.path)} -f -`, request.body ?? '');
    case 'PUT':
      return withBody(`${base} replace --raw ${quote(request.path)} -f -`, request.body ?? '');
    case 'DELETE':
      return request.body === undefined || request.body === ''
        ? `${base} delete --raw ${quote(request.path)}`
        : undefined;
    case 'PATCH': {
      const flags: string[] = [];
      const manager = query.get('fieldManager');
      if (manager !== null) flags.push(`--field-manager=${quote(manager)}`);
      if (query.get('dryRun') === 'All') flags.push('--dry-run=server');
      if (contentType.startsWith('application/apply-patch')) {
        if (query.get('force') === 'true') flags.push('--force-conflicts');
        return withBody(`${base} apply --server-side ${[...flags, '-f -'].join(' ')}`, request.body ?? '');
      }
      const target = objectOf(url.pathname);
      const type = contentType.startsWith('application/merge-patch')
        ? 'merge'
        : contentType.startsWith('application/json-patch')
          ? 'json'
          : contentType.startsWith('application/strategic-merge-patch')
            ? 'strategic'
            : undefined;
      if (target === undefined || type === undefined) return undefined;
      const namespace = target.namespace === undefined ? '' : ` -n ${quote(target.namespace)}`;
      const subresource = target.subresource === undefined ? '' : ` --subresource=${target.subresource}`;
      return `${base} patch ${target.resource} ${quote(target.name)}${namespace}${subresource} --type=${type} ${[...flags, `-p ${quote(request.body ?? '')}`].join(' ')}`;
    }
    default:
      return undefined;
  }
}

/** The object a resource path names: `resource[.group]`, name, namespace, subresource. */
function objectOf(
  pathname: string,
): { resource: string; name: string; namespace?: string; subresource?: string } | undefined {
  const parts = pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  let group = '';
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 2) rest = parts.slice(2);
  else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1] ?? '';
    rest = parts.slice(3);
  } else return undefined;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource] = rest;
  if (resource === undefined || name === undefined) return undefined;
  const result: { resource: string; name: string; namespace?: string; subresource?: string } = {
    resource: group === '' ? resource : `${resource}.${group}`,
    name,
  };
  if (namespace !== undefined) result.namespace = namespace;
  if (subresource !== undefined) result.subresource = subresource;
  return result;
}

function withBody(command: string, body: string | undefined): string {
  if (body === undefined || body === '') return command;
  let marker = 'EOF';
  while (body.split('\n').includes(marker)) marker += '_';
  return `${command} <<'${marker}'\n${body.replace(/\n$/, '')}\n${marker}`;
}

function isWatch(path: string): boolean {
  const watch = new URL(path, 'http://x').searchParams.get('watch');
  return watch === '1' || watch === 'true';
}

function header(request: CommandRequest, name: string): string | undefined {
  return request.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/** Single-quotes for a POSIX shell. */
export function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
