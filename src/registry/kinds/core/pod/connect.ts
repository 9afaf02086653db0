/**
 * What the connect subresources (pod log, exec, attach, portforward and
 * proxy; node and service proxy) share: reading their options from the
 * query as the real server's parameter codec does (Go's bool and integer
 * conversions, whose error text becomes a 400), the CONNECT admission of
 * the options object, the choice of a pod's container, and the
 * `[scheme:]name[:port]` form of proxy names.
 */

import type { KubeObject } from '../../../../api/meta';
import type { AdmissionAttributes } from '../../../../machinery/admission/attributes';
import { badRequest, StatusError } from '../../../../machinery/errors';
import { goQuote } from '../../../../machinery/go-format';
import type { StoreDeps } from '../../../generic/store';
import type { RequestScope } from '../../../rest/scope';
import type { ResourceType } from '../../../resource-type';

/** Go's query-to-bool conversion: absent is false, `0` and `false` (any case) are false, anything else true. */
export function queryBool(query: URLSearchParams, key: string): boolean {
  const values = query.getAll(key);
  if (values.length === 0) return false;
  const v = values[0] ?? '';
  return !(v === '0' || v.toLowerCase() === 'false');
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's query-to-*int64 conversion: absent or empty is unset; anything else must parse (base 10), else 400. */
export function queryInt64(query: URLSearchParams, key: string): number | undefined {
  const v = query.get(key);
  if (v === null || v === '') return undefined;
  if (!/^[+-]?[0-9]+$/.test(v)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n < int64Min || n > int64Max)
    throw badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`);
  return Number(n);
}

/** The query's first value of `key`, or '' (Go's conversion of a string field). */
export function queryString(query: URLSearchParams, key: string): string {
  return query.get(key) ?? '';
}

/**
 * CONNECT admission of a connect request, with its options object (a
 * PodExecOptions, NodeProxyOptions, …) as the object, as the real connect
 * handler runs it before the storage looks anything up.
 */
export async function admitConnect(
  deps: StoreDeps,
  rt: ResourceType,
  scope: RequestScope,
  name: string,
  options: KubeObject,
): Promise<void> {
  const attributes: AdmissionAttributes = {
    operation: 'CONNECT',
    group: rt.group,
    version: rt.version,
    kind: options.kind ?? '',
    resource: rt.resource,
    subresource: scope.subresource,
    namespace: rt.namespaced ? scope.namespace : '',
    name,
    object: options,
    user: scope.user,
    dryRun: false,
    uid: scope.uid,
    requestKind: scope.requestKind,
    requestResource: scope.requestResource,
    warnings: scope.warnings,
    ...(scope.annotations !== undefined ? { annotations: scope.annotations } : {}),
    ...(scope.trace !== undefined ? { trace: scope.trace } : {}),
  };
  const admitted = (await deps.admission.mutate(attributes)) ?? options;
  await deps.admission.validate({ ...attributes, object: admitted });
}

interface Named {
  name?: string;
}

interface PodSpecContainers {
  initContainers?: Named[];
  containers?: Named[];
  ephemeralContainers?: Named[];
}

/** Every container of a pod in the real server's visiting order: init, regular, ephemeral. */
export function containerNames(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as PodSpecContainers;
  return [
    ...(spec.initContainers ?? []),
    ...(spec.containers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ].map((c) => c.name ?? '');
}

/**
 * The container a log, exec or attach request addresses: the one named
 * (any kind of container of the pod), or the pod's only container; 400 with
 * the real server's wording otherwise.
 */
export function chooseContainer(pod: KubeObject, requested: string): string {
  const podName = pod.metadata?.name ?? '';
  if (requested !== '') {
    if (!containerNames(pod).includes(requested))
      throw badRequest(`container ${requested} is not valid for pod ${podName}`);
    return requested;
  }
  const regular = ((pod.spec ?? {}) as PodSpecContainers).containers ?? [];
  if (regular.length === 1) return regular[0]?.name ?? '';
  if (regular.length === 0) throw badRequest(`a container name must be specified for pod ${podName}`);
  throw badRequest(
    `a container name must be specified for pod ${podName}, choose one of: [${containerNames(pod).join(' ')}]`,
  );
}

export interface SchemeNamePort {
  scheme: string;
  name: string;
  port: string;
}

/** The real server's `SplitSchemeNamePort`: `name`, `name:port` or `scheme:name:port`, scheme http, https or none. */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  let out: SchemeNamePort;
  if (parts.length === 1) out = { scheme: '', name: parts[0] ?? '', port: '' };
  else if (parts.length === 2) out = { scheme: '', name: parts[0] ?? '', port: parts[1] ?? '' };
  else if (parts.length === 3) out = { scheme: parts[0] ?? '', name: parts[1] ?? '', port: parts[2] ?? '' };
  else return undefined;
  if (out.name === '' || !['', 'http', 'https'].includes(out.scheme)) return undefined;
  return out;
}

/**
 * Whether an address is one the real server proxies to: an IP literal that
 * is global unicast as Go defines it (not unspecified, loopback,
 * link-local, multicast or the broadcast address — the rest of 0/8 and of
 * 240/4 pass). Host names are not resolved in the sandbox, so they pass.
 */
export function isProxyableAddress(address: string): boolean {
  const v4 = ipv4(address);
  if (v4 !== undefined) {
    const [a = 0, b = 0] = v4;
    if (v4.every((o) => o === 0) || v4.every((o) => o === 255)) return false; // unspecified, broadcast
    if (a === 127 || (a >= 224 && a < 240)) return false; // loopback, multicast
    return !(a === 169 && b === 254); // link-local
  }
  if (!address.includes(':')) return true;
  const v6 = address.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(v6)) return false;
  if (v6 === '::' || v6 === '::1') return false;
  if (v6.startsWith('ff')) return false; // multicast
  if (/^fe[89ab]/.test(v6)) return false; // link-local
  const mapped = /^::ffff:([0-9.]+)$/.exec(v6);
  return mapped === null || isProxyableAddress(mapped[1] ?? '');
}

function ipv4(address: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (m === null) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** Whether a text is an IP literal at all (Go's `ParseIP` succeeding). */
export function isIpLiteral(address: string): boolean {
  return ipv4(address) !== undefined || (address.includes(':') && /^[0-9a-fA-F:.]+$/.test(address));
}

/**
 * The answer where the real server would now open a connection to a pod,
 * node agent or service endpoint: the sandbox has no network behind its
 * objects, so the backend is unavailable (503, as the real server's service
 * proxy answers a service it cannot reach).
 */
export function unreachable(target: string): StatusError {
  return new StatusError(
    503,
    'ServiceUnavailable',
    `error trying to reach service: dial tcp ${target}: the sandbox has no network to its objects`,
  );
}
