/**
 * `kubectl create service clusterip|nodeport|loadbalancer|externalname
 * NAME`: ports from `--tcp=port[:targetPort]`, each named
 * `port-targetPort`, selecting `app=NAME`.
 */

import type { Command, CommandContext } from '../../command';
import { KubectlError } from '../../errors';
import { generator, meta, typedPath } from './generator';

function ports(ctx: CommandContext, nodePort: number): Record<string, unknown>[] {
  return ctx.flags.strings('tcp').map((spec) => {
    const [portText = '', targetText] = spec.split(':');
    const port = Number(portText);
    if (!/^\d+$/.test(portText))
      throw new KubectlError(`error: strconv.Atoi: parsing "${portText}": invalid syntax`);
    const target =
      targetText === undefined ? port : /^\d+$/.test(targetText) ? Number(targetText) : targetText;
    const name = `${portText}-${targetText ?? portText}`;
    return { name, protocol: 'TCP', port, targetPort: target, ...(nodePort > 0 ? { nodePort } : {}) };
  });
}

function serviceGenerator(kind: 'clusterip' | 'nodeport' | 'loadbalancer' | 'externalname', type: string) {
  const flags =
    kind === 'externalname'
      ? [
          { name: 'external-name', type: 'string' as const },
          { name: 'tcp', type: 'stringSlice' as const },
        ]
      : [
          { name: 'tcp', type: 'stringSlice' as const },
          ...(kind === 'clusterip' ? [{ name: 'clusterip', type: 'string' as const }] : []),
          ...(kind === 'nodeport' ? [{ name: 'node-port', type: 'int' as const }] : []),
        ];
  return generator({
    name: kind,
    short: `Create a ${type} service`,
    flags,
    ...(kind === 'externalname' ? { required: ['external-name'] } : {}),
    async build(ctx, name, namespace, enforce) {
      const clusterIP = kind === 'clusterip' ? ctx.flags.string('clusterip') : '';
      if (kind !== 'externalname' && ctx.flags.strings('tcp').length === 0 && clusterIP !== 'None')
        throw new KubectlError('error: at least one tcp port specifier must be provided');
      const p = ports(ctx, kind === 'nodeport' ? ctx.flags.int('node-port') : 0);
      const labels = { app: name };
      const spec: Record<string, unknown> = {};
      if (p.length > 0) spec['ports'] = p;
      spec['selector'] = labels;
      if (clusterIP !== '') spec['clusterIP'] = clusterIP;
      spec['type'] = type;
      if (kind === 'externalname') spec['externalName'] = ctx.flags.string('external-name');
      return {
        object: {
          kind: 'Service',
          apiVersion: 'v1',
          metadata: meta(name, enforce ? namespace : undefined, { labels }),
          spec,
          status: { loadBalancer: {} },
        },
        path: typedPath('', 'v1', 'services', namespace),
      };
    },
  });
}

export const createService: Command = {
  name: 'service',
  aliases: ['svc'],
  short: 'Create a service using a specified subcommand',
  subcommands: [
    serviceGenerator('clusterip', 'ClusterIP'),
    serviceGenerator('externalname', 'ExternalName'),
    serviceGenerator('loadbalancer', 'LoadBalancer'),
    serviceGenerator('nodeport', 'NodePort'),
  ],
};
