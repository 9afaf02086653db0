/**
 * kubectl's describers, one per kind it knows, keyed as kubectl keys them:
 * by group and kind with the upstream group names, so a kind whose group
 * the server renames (the orch profile's `rbac.authorization.orch.io`)
 * falls back to the generic describer exactly as kubectl's does. Each
 * describer reads what kubectl reads (the object, related objects, its
 * events) through the client and writes kubectl's layout.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import { withQuery, type ApiClient } from '../../client';
import type { Mapping } from '../restmapper';
import { upstreamNames, type CompiledNames } from '../names';
import { ageSince } from '../printers/age';
import { formatLabels } from '../printers/table';
import {
  describeEvents,
  PrefixWriter,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printUnstructured,
  rfc1123z,
  type EventLike,
} from './writer';
import { describePod, describePodTemplate } from './pod';
import { csrSubject } from './csr-subject';

export interface DescribeContext {
  client: ApiClient;
  now: Date;
  showEvents: boolean;
  chunkSize: number;
}

type Obj = KubeObject & Record<string, unknown>;
type Describer = (ctx: DescribeContext, mapping: Mapping, object: Obj) => Promise<string>;

function objectPathOf(mapping: Mapping, namespace: string | undefined, name?: string): string {
  const base = mapping.group === '' ? `/api/${mapping.version}` : `/apis/${mapping.group}/${mapping.version}`;
  const ns = mapping.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${mapping.resource}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}

/** The events about an object (kubectl's searchEvents). */
export async function searchEvents(ctx: DescribeContext, object: Obj): Promise<EventLike[] | undefined> {
  if (!ctx.showEvents) return undefined;
  const m = object.metadata ?? {};
  const selector = [
    `involvedObject.name=${m.name ?? ''}`,
    `involvedObject.namespace=${m.namespace ?? ''}`,
    `involvedObject.kind=${object.kind ?? ''}`,
    `involvedObject.uid=${m.uid ?? ''}`,
  ].join(',');
  const ns = m.namespace ? `/namespaces/${encodeURIComponent(m.namespace)}` : '';
  try {
    const list = await ctx.client.send<KubeList<EventLike>>(
      'GET',
      withQuery(`/api/v1${ns}/events`, { fieldSelector: selector, limit: ctx.chunkSize }),
    );
    return list.body.items;
  } catch {
    return undefined;
  }
}

async function list(ctx: DescribeContext, path: string, query: Record<string, string> = {}): Promise<Obj[]> {
  try {
    return (await ctx.client.send<KubeList<Obj>>('GET', withQuery(path, query))).body.items;
  } catch {
    return [];
  }
}

const generic: Describer = async (ctx, _mapping, obj) => {
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  printUnstructured(w, 0, obj, '', [
    '.metadata.name',
    '.metadata.namespace',
    '.metadata.labels',
    '.metadata.annotations',
    '.metadata.managedFields',
  ]);
  describeEvents(events, w, ctx.now);
  return w.result();
};

const namespace: Describer = async (ctx, _m, obj) => {
  const name = obj.metadata?.name ?? '';
  const quotas = await list(ctx, `/api/v1/namespaces/${encodeURIComponent(name)}/resourcequotas`);
  const limits = await list(ctx, `/api/v1/namespaces/${encodeURIComponent(name)}/limitranges`);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${name}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  const status = (obj['status'] ?? {}) as { phase?: string; conditions?: Record<string, string>[] };
  w.write(0, `Status:\t${status.phase ?? ''}\n`);
  if ((status.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t------------------\t------\t-------\n');
    for (const c of status.conditions ?? [])
      w.write(
        1,
        `${c['type'] ?? ''}\t${c['status'] ?? ''}\t${rfc1123z(c['lastTransitionTime'])}\t${c['reason'] ?? ''}\t${c['message'] ?? ''}\n`,
      );
  }
  w.write(0, '\n');
  describeQuotas(quotas, w);
  w.write(0, '\n');
  describeLimitRanges(limits, w);
  return w.result();
};

function describeQuotas(quotas: Obj[], w: PrefixWriter): void {
  if (quotas.length === 0) {
    w.write(0, 'No resource quota.\n');
    return;
  }
  w.write(0, 'Resource Quotas\n');
  for (const q of [...quotas].sort((a, b) =>
    (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1,
  )) {
    w.write(0, `  Name:\t${q.metadata?.name ?? ''}\n`);
    const spec = (q['spec'] ?? {}) as { scopes?: string[] };
    if ((spec.scopes ?? []).length > 0)
      w.write(0, `  Scopes:\t${[...(spec.scopes ?? [])].sort().join(', ')}\n`);
    w.write(0, '  Resource\tUsed\tHard\n');
    w.write(0, '  --------\t---\t---\n');
    const status = (q['status'] ?? {}) as { hard?: Record<string, string>; used?: Record<string, string> };
    for (const r of Object.keys(status.hard ?? {}).sort())
      w.write(0, `  ${r}\t${status.used?.[r] ?? '0'}\t${status.hard?.[r] ?? ''}\n`);
  }
}

function describeLimitRanges(limits: Obj[], w: PrefixWriter): void {
  if (limits.length === 0) {
    w.write(0, 'No LimitRange resource.\n');
    return;
  }
  w.write(0, 'Resource Limits\n');
  for (const l of limits) {
    w.write(0, ` Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n`);
    w.write(0, ` ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n`);
    const items = (l['spec'] as { limits?: Record<string, unknown>[] } | undefined)?.limits ?? [];
    for (const item of items) {
      const field = (k: string) => (item[k] ?? {}) as Record<string, string>;
      const names = new Set([
        ...Object.keys(field('max')),
        ...Object.keys(field('min')),
        ...Object.keys(field('default')),
        ...Object.keys(field('defaultRequest')),
        ...Object.keys(field('maxLimitRequestRatio')),
      ]);
      for (const r of [...names].sort())
        w.write(
          0,
          ` ${String(item['type'] ?? '')}\t${r}\t${field('min')[r] ?? '-'}\t${field('max')[r] ?? '-'}\t${field('defaultRequest')[r] ?? '-'}\t${field('default')[r] ?? '-'}\t${field('maxLimitRequestRatio')[r] ?? '-'}\n`,
        );
    }
  }
}

const serviceAccount: Describer = async (ctx, _m, obj) => {
  const ns = obj.metadata?.namespace ?? '';
  const secrets = await list(ctx, `/api/v1/namespaces/${encodeURIComponent(ns)}/secrets`);
  const tokens = secrets.filter(
    (s) =>
      s['type'] === 'kubernetes.io/service-account-token' &&
      s.metadata?.annotations?.['kubernetes.io/service-account.name'] === obj.metadata?.name,
  );
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${ns}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  const pull = ((obj['imagePullSecrets'] ?? []) as { name?: string }[]).map((s) => s.name ?? '');
  const mount = ((obj['secrets'] ?? []) as { name?: string }[]).map((s) => s.name ?? '');
  const existing = new Set(secrets.map((s) => s.metadata?.name));
  const rows: [string, string[]][] = [
    ['Image pull secrets:', pull],
    ['Mountable secrets: ', mount],
    ['Tokens:            ', tokens.map((t) => t.metadata?.name ?? '')],
  ];
  for (const [header, names] of rows) {
    if (names.length === 0) {
      w.write(0, `${header}\t<none>\n`);
      continue;
    }
    let prefix = header;
    for (const n of names) {
      const missing =
        header !== 'Tokens:            ' && !existing.has(n) && header === 'Mountable secrets: ';
      w.write(0, `${prefix}\t${n}${missing ? ' (not found)' : ''}\n`);
      prefix = '                   ';
    }
  }
  describeEvents(events, w, ctx.now);
  return w.result();
};

const configMap: Describer = async (ctx, _m, obj) => {
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, '\nData\n====\n');
  const data = (obj['data'] ?? {}) as Record<string, string>;
  for (const k of Object.keys(data).sort()) {
    w.write(0, `${k}:\n----\n`);
    w.write(0, `${data[k]}\n`);
  }
  w.write(0, '\nBinaryData\n====\n');
  const binary = (obj['binaryData'] ?? {}) as Record<string, string>;
  for (const k of Object.keys(binary).sort())
    w.write(0, `${k}: ${Math.floor(((binary[k] ?? '').replace(/=+$/, '').length * 3) / 4)} bytes\n`);
  w.write(0, '\n');
  describeEvents(events, w, ctx.now);
  return w.result();
};

function base64Length(b64: string): number {
  const clean = b64.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return (clean.length / 4) * 3 - padding;
}

const secret: Describer = async (_ctx, _m, obj) => {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, `\nType:\t${String(obj['type'] ?? '')}\n`);
  w.write(0, '\nData\n====\n');
  const data = (obj['data'] ?? {}) as Record<string, string>;
  for (const k of Object.keys(data).sort()) {
    if (k === 'token' && obj['type'] === 'kubernetes.io/service-account-token')
      w.write(
        0,
        `${k}:\t${new TextDecoder().decode(Uint8Array.from(atob(data[k] ?? ''), (c) => c.charCodeAt(0)))}\n`,
      );
    else w.write(0, `${k}:\t${base64Length(data[k] ?? '')} bytes\n`);
  }
  return w.result();
};

function selectorText(
  selector:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
): string {
  if (selector === undefined) return '<none>';
  const parts: string[] = [];
  for (const k of Object.keys(selector.matchLabels ?? {}).sort())
    parts.push(`${k}=${selector.matchLabels?.[k]}`);
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length === 0 ? '' : parts.sort().join(',');
}

const deployment: Describer = async (ctx, _m, obj) => {
  const spec = (obj['spec'] ?? {}) as Record<string, unknown> & {
    replicas?: number;
    selector?: Parameters<typeof selectorText>[0];
    strategy?: {
      type?: string;
      rollingUpdate?: { maxUnavailable?: string | number; maxSurge?: string | number };
    };
    minReadySeconds?: number;
    template?: Record<string, unknown>;
  };
  const status = (obj['status'] ?? {}) as Record<string, number | undefined> & {
    conditions?: Record<string, string>[];
  };
  const ns = obj.metadata?.namespace ?? '';
  const selector = selectorText(spec.selector);
  const replicaSets = (
    await list(
      ctx,
      `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/replicasets`,
      selector ? { labelSelector: selector } : {},
    )
  ).filter((rs) => (rs.metadata?.ownerReferences ?? []).some((o) => o.uid === obj.metadata?.uid));
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${ns}\n`);
  w.write(0, `CreationTimestamp:\t${rfc1123z(obj.metadata?.creationTimestamp)}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, `Selector:\t${selector}\n`);
  w.write(
    0,
    `Replicas:\t${spec.replicas ?? 0} desired | ${status['updatedReplicas'] ?? 0} updated | ${status['replicas'] ?? 0} total | ${status['availableReplicas'] ?? 0} available | ${status['unavailableReplicas'] ?? 0} unavailable\n`,
  );
  w.write(0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
  w.write(0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  if (spec.strategy?.rollingUpdate !== undefined)
    w.write(
      0,
      `RollingUpdateStrategy:\t${spec.strategy.rollingUpdate.maxUnavailable ?? ''} max unavailable, ${spec.strategy.rollingUpdate.maxSurge ?? ''} max surge\n`,
    );
  describePodTemplate(spec.template, w);
  if ((status.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of status.conditions ?? []) w.write(1, `${c['type']} \t${c['status']}\t${c['reason']}\n`);
  }
  const templateHash = (rs: Obj) => rs.metadata?.labels?.['pod-template-hash'];
  const newest = replicaSets.find(
    (rs) =>
      JSON.stringify(
        ((rs['spec'] as Record<string, unknown>)?.['template'] as Record<string, unknown>)?.['spec'],
      ) === JSON.stringify(spec.template?.['spec']),
  );
  const old = replicaSets.filter(
    (rs) => rs !== newest && ((rs['spec'] as { replicas?: number })?.replicas ?? 0) > 0,
  );
  const rsText = (list: Obj[]) =>
    list.length === 0
      ? '<none>'
      : list
          .map(
            (rs) =>
              `${rs.metadata?.name} (${(rs['status'] as { replicas?: number })?.replicas ?? 0}/${(rs['spec'] as { replicas?: number })?.replicas ?? 0} replicas created)`,
          )
          .join(', ');
  void templateHash;
  // kubectl v1.27 leaves both lines out when it could not read the replica sets; with none found it does too.
  if (replicaSets.length > 0) {
    w.write(0, `OldReplicaSets:\t${rsText(old)}\n`);
    w.write(0, `NewReplicaSet:\t${rsText(newest !== undefined ? [newest] : [])}\n`);
  }
  describeEvents(events, w, ctx.now);
  return w.result();
};

const replicaSet: Describer = async (ctx, _m, obj) => {
  const spec = (obj['spec'] ?? {}) as {
    replicas?: number;
    selector?: Parameters<typeof selectorText>[0];
    template?: Record<string, unknown>;
  };
  const status = (obj['status'] ?? {}) as { replicas?: number; conditions?: Record<string, string>[] };
  const ns = obj.metadata?.namespace ?? '';
  const selector = selectorText(spec.selector);
  const pods = (
    await list(
      ctx,
      `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`,
      selector ? { labelSelector: selector } : {},
    )
  ).filter((p) => (p.metadata?.ownerReferences ?? []).some((o) => o.uid === obj.metadata?.uid));
  const phase = (p: Obj) => (p['status'] as { phase?: string } | undefined)?.phase;
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${ns}\n`);
  w.write(0, `Selector:\t${selector}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  const owner = (obj.metadata?.ownerReferences ?? []).find((o) => o.controller);
  if (owner !== undefined) w.write(0, `Controlled By:\t${owner.kind}/${owner.name}\n`);
  w.write(0, `Replicas:\t${status.replicas ?? 0} current / ${spec.replicas ?? 0} desired\n`);
  w.write(
    0,
    `Pods Status:\t${pods.filter((p) => phase(p) === 'Running').length} Running / ${pods.filter((p) => phase(p) === 'Pending').length} Waiting / ${pods.filter((p) => phase(p) === 'Succeeded').length} Succeeded / ${pods.filter((p) => phase(p) === 'Failed').length} Failed\n`,
  );
  describePodTemplate(spec.template, w);
  if ((status.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(1, '----\t------\t------\n');
    for (const c of status.conditions ?? []) w.write(1, `${c['type']} \t${c['status']}\t${c['reason']}\n`);
  }
  describeEvents(events, w, ctx.now);
  return w.result();
};

function formatEndpoints(endpoints: Obj | undefined, portName: string): string {
  const subsets = (endpoints?.['subsets'] ?? []) as {
    addresses?: { ip: string }[];
    ports?: { name?: string; port: number }[];
  }[];
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    for (const port of ss.ports ?? []) {
      if ((port.name ?? '') !== portName) continue;
      for (const addr of ss.addresses ?? []) {
        count++;
        if (list.length < 3) list.push(`${addr.ip}:${port.port}`);
      }
    }
  }
  if (count === 0) return '<none>';
  return list.join(',') + (count > 3 ? ` + ${count - 3} more...` : '');
}

const service: Describer = async (ctx, _m, obj) => {
  const ns = obj.metadata?.namespace ?? '';
  let endpoints: Obj | undefined;
  try {
    endpoints = (
      await ctx.client.send<Obj>(
        'GET',
        `/api/v1/namespaces/${encodeURIComponent(ns)}/endpoints/${encodeURIComponent(obj.metadata?.name ?? '')}`,
      )
    ).body;
  } catch {
    endpoints = undefined;
  }
  const events = await searchEvents(ctx, obj);
  const spec = (obj['spec'] ?? {}) as Record<string, unknown> & {
    selector?: Record<string, string>;
    ports?: {
      name?: string;
      port: number;
      protocol?: string;
      targetPort?: number | string;
      nodePort?: number;
    }[];
    ipFamilies?: string[];
    clusterIPs?: string[];
    externalIPs?: string[];
  };
  const status = (obj['status'] ?? {}) as {
    loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] };
  };
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${ns}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, `Selector:\t${formatLabels(spec.selector ?? {})}\n`);
  w.write(0, `Type:\t${String(spec['type'] ?? '')}\n`);
  if (spec['ipFamilyPolicy'] !== undefined)
    w.write(0, `IP Family Policy:\t${String(spec['ipFamilyPolicy'])}\n`);
  w.write(
    0,
    `IP Families:\t${(spec.ipFamilies ?? []).length > 0 ? (spec.ipFamilies ?? []).join(',') : '<none>'}\n`,
  );
  w.write(0, `IP:\t${String(spec['clusterIP'] ?? '')}\n`);
  w.write(0, `IPs:\t${(spec.clusterIPs ?? []).length > 0 ? (spec.clusterIPs ?? []).join(',') : '<none>'}\n`);
  if ((spec.externalIPs ?? []).length > 0)
    w.write(0, `External IPs:\t${(spec.externalIPs ?? []).join(',')}\n`);
  if (spec['loadBalancerIP']) w.write(0, `IP:\t${String(spec['loadBalancerIP'])}\n`);
  if (spec['loadBalancerClass']) w.write(0, `LoadBalancer Class:\t${String(spec['loadBalancerClass'])}\n`);
  if ((status.loadBalancer?.ingress ?? []).length > 0)
    w.write(
      0,
      `LoadBalancer Ingress:\t${(status.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname).join(', ')}\n`,
    );
  if (spec['externalName']) w.write(0, `External Name:\t${String(spec['externalName'])}\n`);
  for (const p of spec.ports ?? []) {
    const name = p.name || '<unset>';
    w.write(0, `Port:\t${name}\t${p.port}/${p.protocol ?? ''}\n`);
    w.write(0, `TargetPort:\t${p.targetPort ?? 0}/${p.protocol ?? ''}\n`);
    if (p.nodePort) w.write(0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol ?? ''}\n`);
    w.write(0, `Endpoints:\t${formatEndpoints(endpoints, p.name ?? '')}\n`);
  }
  w.write(0, `Session Affinity:\t${String(spec['sessionAffinity'] ?? '')}\n`);
  if (spec['externalTrafficPolicy'])
    w.write(0, `External Traffic Policy:\t${String(spec['externalTrafficPolicy'])}\n`);
  if (spec['healthCheckNodePort'])
    w.write(0, `HealthCheck NodePort:\t${String(spec['healthCheckNodePort'])}\n`);
  describeEvents(events, w, ctx.now);
  return w.result();
};

const node: Describer = async (ctx, _m, obj) => {
  const events = await searchEvents(ctx, obj);
  const status = (obj['status'] ?? {}) as Record<string, unknown> & {
    conditions?: Record<string, string>[];
    addresses?: { type: string; address: string }[];
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    nodeInfo?: Record<string, string>;
  };
  const spec = (obj['spec'] ?? {}) as {
    podCIDR?: string;
    podCIDRs?: string[];
    providerID?: string;
    unschedulable?: boolean;
    taints?: { key: string; value?: string; effect: string }[];
  };
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  const roles = Object.keys(obj.metadata?.labels ?? {})
    .filter((l) => l.startsWith('node-role.kubernetes.io/'))
    .map((l) => l.slice('node-role.kubernetes.io/'.length))
    .sort();
  w.write(0, `Roles:\t${roles.length > 0 ? roles.join(',') : '<none>'}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(obj.metadata?.creationTimestamp)}\n`);
  const taints = spec.taints ?? [];
  w.write(0, `Taints:\t${taints.length === 0 ? '<none>' : ''}`);
  taints.forEach((t, i) =>
    w.write(0, `${i > 0 ? '\t' : ''}${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`),
  );
  if (taints.length === 0) w.write(0, '\n');
  w.write(0, `Unschedulable:\t${spec.unschedulable === true}\n`);
  if ((status.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(0, '  ----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of status.conditions ?? [])
      w.write(
        1,
        `${c['type']} \t${c['status']} \t${rfc1123z(c['lastHeartbeatTime'])} \t${rfc1123z(c['lastTransitionTime'])} \t${c['reason'] ?? ''} \t${c['message'] ?? ''}\n`,
      );
  }
  w.write(0, 'Addresses:\n');
  for (const a of status.addresses ?? []) w.write(0, `  ${a.type}:\t${a.address}\n`);
  const resources = (title: string, values: Record<string, string> | undefined) => {
    if (values === undefined || Object.keys(values).length === 0) return;
    w.write(0, `${title}:\n`);
    for (const k of Object.keys(values).sort()) w.write(0, `  ${k}:\t${values[k]}\n`);
  };
  resources('Capacity', status.capacity);
  resources('Allocatable', status.allocatable);
  const info = status.nodeInfo ?? {};
  w.write(0, 'System Info:\n');
  const infoRows: [string, string][] = [
    ['Machine ID', 'machineID'],
    ['System UUID', 'systemUUID'],
    ['Boot ID', 'bootID'],
    ['Kernel Version', 'kernelVersion'],
    ['OS Image', 'osImage'],
    ['Operating System', 'operatingSystem'],
    ['Architecture', 'architecture'],
    ['Container Runtime Version', 'containerRuntimeVersion'],
    ['Kubelet Version', 'kubeletVersion'],
    ['Kube-Proxy Version', 'kubeProxyVersion'],
  ];
  for (const [label, key] of infoRows) w.write(0, `  ${label}:\t${info[key] ?? ''}\n`);
  if (spec.podCIDR) w.write(0, `PodCIDR:\t${spec.podCIDR}\n`);
  if ((spec.podCIDRs ?? []).length > 0) w.write(0, `PodCIDRs:\t${(spec.podCIDRs ?? []).join(',')}\n`);
  if (spec.providerID) w.write(0, `ProviderID:\t${spec.providerID}\n`);
  const pods = await list(ctx, '/api/v1/pods', {
    fieldSelector: `spec.nodeName=${obj.metadata?.name ?? ''},status.phase!=Succeeded,status.phase!=Failed`,
  });
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(0, '  Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(0, '  ---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  for (const p of pods)
    w.write(
      0,
      `  ${p.metadata?.namespace ?? ''}\t${p.metadata?.name ?? ''}\t\t0 (0%)\t0 (0%)\t0 (0%)\t0 (0%)\t${ageSince(p.metadata?.creationTimestamp, ctx.now)}\n`,
    );
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(0, '  Resource\tRequests\tLimits\n');
  w.write(0, '  --------\t--------\t------\n');
  w.write(0, '  cpu\t0 (0%)\t0 (0%)\n');
  w.write(0, '  memory\t0 (0%)\t0 (0%)\n');
  w.write(0, '  ephemeral-storage\t0 (0%)\t0 (0%)\n');
  describeEvents(events, w, ctx.now);
  return w.result();
};

function rulesTable(
  w: PrefixWriter,
  rules: {
    apiGroups?: string[];
    resources?: string[];
    resourceNames?: string[];
    nonResourceURLs?: string[];
    verbs?: string[];
  }[],
): void {
  w.write(0, 'PolicyRule:\n');
  w.write(1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  w.write(1, '---------\t-----------------\t--------------\t-----\n');
  // Rules broken down to one group and resource each, sorted as kubectl sorts PolicyRule.String():
  // by API group, then resource; non-resource rules last.
  const keyed: { key: string; row: [string, string, string, string] }[] = [];
  for (const r of rules) {
    const verbs = `[${(r.verbs ?? []).join(' ')}]`;
    const names = `[${(r.resourceNames ?? []).join(' ')}]`;
    const urls = `[${(r.nonResourceURLs ?? []).join(' ')}]`;
    if ((r.resources ?? []).length === 0) keyed.push({ key: `N${urls}`, row: ['', urls, names, verbs] });
    for (const res of r.resources ?? [])
      for (const g of r.apiGroups ?? [''])
        keyed.push({ key: `A"${g}"\u0000${res}`, row: [g === '' ? res : `${res}.${g}`, urls, names, verbs] });
  }
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = keyed.map((k) => k.row);
  for (const row of rows) w.write(1, `${row.join('\t')}\n`);
}

const role: Describer = async (_ctx, _m, obj) => {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  rulesTable(w, (obj['rules'] ?? []) as never);
  return w.result();
};

const binding: Describer = async (_ctx, _m, obj) => {
  const w = new PrefixWriter();
  const ref = (obj['roleRef'] ?? {}) as { kind?: string; name?: string };
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, 'Role:\n');
  w.write(1, `Kind:\t${ref.kind ?? ''}\n`);
  w.write(1, `Name:\t${ref.name ?? ''}\n`);
  w.write(0, 'Subjects:\n');
  w.write(1, 'Kind\tName\tNamespace\n');
  w.write(1, '----\t----\t---------\n');
  for (const s of (obj['subjects'] ?? []) as { kind?: string; name?: string; namespace?: string }[])
    w.write(1, `${s.kind ?? ''}\t${s.name ?? ''}\t${s.namespace ?? ''}\n`);
  return w.result();
};

const csr: Describer = async (ctx, _m, obj) => {
  const spec = (obj['spec'] ?? {}) as {
    username?: string;
    signerName?: string;
    expirationSeconds?: number;
    request?: string;
  };
  const status = (obj['status'] ?? {}) as { conditions?: { type: string }[] };
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', obj.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(obj.metadata?.creationTimestamp)}\n`);
  w.write(0, `Requesting User:\t${spec.username ?? ''}\n`);
  if (spec.signerName) w.write(0, `Signer:\t${spec.signerName}\n`);
  if (spec.expirationSeconds) w.write(0, `Requested Duration:\t${spec.expirationSeconds}s\n`);
  const conditions = status.conditions ?? [];
  const state = conditions.some((c) => c.type === 'Denied')
    ? 'Denied'
    : conditions.some((c) => c.type === 'Approved')
      ? 'Approved'
      : 'Pending';
  const issued = (obj['status'] as { certificate?: string } | undefined)?.certificate ? ',Issued' : '';
  const failed = conditions.some((c) => c.type === 'Failed') ? ',Failed' : '';
  w.write(0, `Status:\t${state}${issued}${failed}\n`);
  const subject = csrSubject(Uint8Array.from(atob(spec.request ?? ''), (c) => c.charCodeAt(0)));
  if (subject !== undefined) {
    const list = (title: string, values: string[] | undefined) => {
      if (values !== undefined && values.length > 0) w.write(0, `\t${title}:\t${values.join(', ')}\n`);
    };
    w.write(0, 'Subject:\n');
    w.write(0, `\tCommon Name:\t${subject.commonName}\n`);
    w.write(0, `\tSerial Number:\t${subject.serialNumber}\n`);
    for (const t of [
      'Organization',
      'Organizational Unit',
      'Country',
      'Locality',
      'Province',
      'StreetAddress',
      'PostalCode',
    ])
      list(t, subject.lists[t]);
    if (subject.dnsNames.length + subject.emails.length + subject.ips.length + subject.uris.length > 0) {
      w.write(0, 'Subject Alternative Names:\n');
      list('DNS Names', subject.dnsNames);
      list('Email Addresses', subject.emails);
      list('IP Addresses', subject.ips);
      list('URIs', subject.uris);
    }
  }
  describeEvents(events, w, ctx.now);
  return w.result();
};

const resourceQuota: Describer = async (_ctx, _m, obj) => {
  const spec = (obj['spec'] ?? {}) as { scopes?: string[] };
  const status = (obj['status'] ?? {}) as { hard?: Record<string, string>; used?: Record<string, string> };
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
  if ((spec.scopes ?? []).length > 0) w.write(0, `Scopes:\t${[...(spec.scopes ?? [])].sort().join(', ')}\n`);
  w.write(0, 'Resource\tUsed\tHard\n');
  w.write(0, '--------\t----\t----\n');
  for (const r of Object.keys(status.hard ?? {}).sort())
    w.write(0, `${r}\t${status.used?.[r] ?? '0'}\t${status.hard?.[r] ?? ''}\n`);
  return w.result();
};

const priorityClass: Describer = async (ctx, _m, obj) => {
  const events = await searchEvents(ctx, obj);
  const w = new PrefixWriter();
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Value:\t${String(obj['value'] ?? 0)}\n`);
  w.write(0, `GlobalDefault:\t${obj['globalDefault'] === true}\n`);
  w.write(0, `PreemptionPolicy:\t${String(obj['preemptionPolicy'] ?? '')}\n`);
  w.write(0, `Description:\t${String(obj['description'] ?? '')}\n`);
  printAnnotationsMultiline(w, 'Annotations', obj.metadata?.annotations);
  describeEvents(events, w, ctx.now);
  return w.result();
};

const event: Describer = async (ctx, mapping, obj) => generic(ctx, mapping, obj);

const describers: Record<string, Describer> = {
  '/Namespace': namespace,
  '/ServiceAccount': serviceAccount,
  '/ConfigMap': configMap,
  '/Secret': secret,
  '/Pod': (ctx, _m, obj) => describePod(ctx, obj, searchEvents),
  '/Service': service,
  '/Node': node,
  '/ResourceQuota': resourceQuota,
  'scheduling.k8s.io/PriorityClass': priorityClass,
  'apps/Deployment': deployment,
  'apps/ReplicaSet': replicaSet,
  'rbac.authorization.k8s.io/Role': role,
  'rbac.authorization.k8s.io/ClusterRole': role,
  'rbac.authorization.k8s.io/RoleBinding': binding,
  'rbac.authorization.k8s.io/ClusterRoleBinding': binding,
  'certificates.k8s.io/CertificateSigningRequest': csr,
  'events.k8s.io/Event': event,
};

/** The describer kubectl uses for a mapping, or the generic one. */
export function describerFor(mapping: Mapping, names: CompiledNames = upstreamNames): Describer {
  return describers[`${names.upstream(mapping.group)}/${mapping.kind}`] ?? generic;
}

export { objectPathOf };
