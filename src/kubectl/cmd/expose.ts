/**
 * `kubectl expose TYPE NAME [--port=…]`: a Service in front of a Pod,
 * Service, ReplicationController, Deployment or ReplicaSet, built as
 * kubectl's service generator builds it — the object's map-based selector
 * (or `--selector`), its labels (or `--labels`), its container ports (or
 * `--port`, several named `port-1`, `port-2`, …) with their protocols, the
 * target port equal to the port unless `--target-port` — and created with
 * field manager `kubectl-expose`: "service/NAME exposed".
 */

import type { KubeObject } from '../../api/meta';
import { parseApiVersion, withQuery } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../resource/builder';
import { resolveObjects } from '../resource/visit';
import { checkOutput, dryRunStrategy, printResult, writeFlags, writeQuery } from './mutation';

type Obj = Record<string, unknown>;
type Port = { containerPort?: number; protocol?: string };

/** The selector kubectl derives from an object (MapBasedSelectorForObject). */
export function selectorFor(object: KubeObject): Record<string, string> {
  const spec = (object['spec'] ?? {}) as Obj;
  // kubectl converts to its typed structs first: a renamed group is none of them.
  const { group } = parseApiVersion(object.apiVersion ?? '');
  const known = group === '' || ((group === 'apps' || group === 'extensions') && object.kind !== 'Pod');
  switch (known ? object.kind : undefined) {
    case 'Pod': {
      const labels = object.metadata?.labels ?? {};
      if (Object.keys(labels).length === 0)
        throw new KubectlError('error: the pod has no labels and cannot be exposed');
      return labels;
    }
    case 'Service':
    case 'ReplicationController':
      return (spec['selector'] ?? {}) as Record<string, string>;
    case 'Deployment':
    case 'ReplicaSet': {
      const selector = (spec['selector'] ?? {}) as {
        matchLabels?: Record<string, string>;
        matchExpressions?: unknown[];
      };
      if ((selector.matchExpressions ?? []).length > 0)
        throw new KubectlError(
          `error: couldn't convert expressions - "${JSON.stringify(selector.matchExpressions)}" to map-based selector format`,
        );
      return selector.matchLabels ?? {};
    }
  }
  throw new KubectlError(`error: cannot expose a ${object.kind ?? ''}`);
}

/** The ports and their protocols an object declares (PortsForObject, ProtocolsForObject). */
export function portsFor(object: KubeObject): { port: string; protocol: string }[] {
  const spec = (object['spec'] ?? {}) as Obj;
  if (object.kind === 'Service')
    return ((spec['ports'] ?? []) as { port: number; protocol?: string }[]).map((p) => ({
      port: String(p.port),
      protocol: p.protocol ?? 'TCP',
    }));
  const podSpec = (object.kind === 'Pod' ? spec : (((spec['template'] ?? {}) as Obj)['spec'] ?? {})) as Obj;
  const out: { port: string; protocol: string }[] = [];
  for (const c of (podSpec['containers'] ?? []) as { ports?: Port[] }[])
    for (const p of c.ports ?? [])
      if (p.containerPort !== undefined)
        out.push({ port: String(p.containerPort), protocol: p.protocol ?? 'TCP' });
  return out;
}

function parseMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new KubectlError(`error: invalid label spec: ${pair}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

export interface ExposeOptions {
  name: string;
  ports: string[];
  protocols: Map<string, string>;
  protocol: string;
  targetPort: string;
  labels: Record<string, string>;
  selector: Record<string, string>;
  type: string;
  clusterIP: string;
  externalIP: string;
  sessionAffinity: string;
  loadBalancerIP: string;
}

/** The Service kubectl's generator makes, in its struct order. */
export function generateService(o: ExposeOptions): KubeObject {
  const ports = o.ports.map((text, i) => {
    const port = Number(text);
    if (!/^\d+$/.test(text)) throw new KubectlError(`error: strconv.Atoi: parsing "${text}": invalid syntax`);
    const target =
      o.targetPort === '' ? port : /^\d+$/.test(o.targetPort) ? Number(o.targetPort) : o.targetPort;
    return {
      ...(o.ports.length > 1 ? { name: `port-${i + 1}` } : {}),
      protocol: o.protocol !== '' ? o.protocol : (o.protocols.get(text) ?? 'TCP'),
      port,
      targetPort: target,
    };
  });
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: o.name,
      creationTimestamp: null,
      ...(Object.keys(o.labels).length > 0 ? { labels: o.labels } : {}),
    },
    spec: {
      ports,
      selector: o.selector,
      ...(o.clusterIP !== '' ? { clusterIP: o.clusterIP } : {}),
      ...(o.type !== '' ? { type: o.type } : {}),
      ...(o.externalIP !== '' ? { externalIPs: [o.externalIP] } : {}),
      ...(o.sessionAffinity !== '' ? { sessionAffinity: o.sessionAffinity } : {}),
      ...(o.loadBalancerIP !== '' ? { loadBalancerIP: o.loadBalancerIP } : {}),
    },
    status: { loadBalancer: {} },
  } as KubeObject;
}

export const exposeCommand: Command = {
  name: 'expose',
  short:
    'Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service',
  flags: [
    ...writeFlags('kubectl-expose').filter((f) => f.name !== 'validate'),
    ...filenameFlags,
    { name: 'port', type: 'string' },
    { name: 'protocol', type: 'string' },
    { name: 'target-port', type: 'string' },
    { name: 'container-port', type: 'string', hidden: true },
    { name: 'name', type: 'string' },
    { name: 'type', type: 'string' },
    { name: 'selector', type: 'string' },
    { name: 'labels', shorthand: 'l', type: 'string' },
    { name: 'external-ip', type: 'string' },
    { name: 'cluster-ip', type: 'string' },
    { name: 'session-affinity', type: 'string' },
    { name: 'load-balancer-ip', type: 'string' },
    { name: 'override-type', type: 'string', default: 'merge' },
    { name: 'overrides', type: 'string' },
    { name: 'record', type: 'bool', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const filenames = f.strings('filename');
    if (ctx.args.length === 0 && filenames.length === 0)
      throw new KubectlError(
        "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
      );
    const dryRun = dryRunStrategy(ctx);
    await checkOutput(ctx);
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args);
    const errors: unknown[] = [];
    const objects = await resolveObjects(ctx, built.infos, errors);
    const client = await ctx.f.client();
    for (const { info, name, object } of objects) {
      try {
        const selector = f.string('selector') !== '' ? parseMap(f.string('selector')) : selectorFor(object);
        const declared = portsFor(object);
        const portText = f.string('port') !== '' ? f.string('port') : declared.map((p) => p.port).join(',');
        if (portText === '')
          throw new KubectlError("error: couldn't find port via --port flag or introspection");
        const service = generateService({
          name: f.string('name') !== '' ? f.string('name') : name,
          ports: portText.split(','),
          protocols: new Map(declared.map((p) => [p.port, p.protocol])),
          protocol: f.string('protocol'),
          targetPort: f.string('target-port') !== '' ? f.string('target-port') : f.string('container-port'),
          labels: f.string('labels') !== '' ? parseMap(f.string('labels')) : (object.metadata?.labels ?? {}),
          selector,
          type: f.string('type'),
          clusterIP: f.string('cluster-ip'),
          externalIP: f.string('external-ip'),
          sessionAffinity: f.string('session-affinity'),
          loadBalancerIP: f.string('load-balancer-ip'),
        });
        if (dryRun === 'client') {
          await printResult(ctx, service, 'exposed', dryRun, true);
          continue;
        }
        const query = writeQuery(ctx, dryRun);
        delete query['fieldValidation'];
        const { creationTimestamp: _none, ...metadata } = service.metadata ?? {};
        const created = (
          await client.send<KubeObject>(
            'POST',
            withQuery(`/api/v1/namespaces/${info.namespace}/services`, query),
            { body: { ...service, metadata } },
          )
        ).body;
        await printResult(ctx, created, 'exposed', dryRun);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
