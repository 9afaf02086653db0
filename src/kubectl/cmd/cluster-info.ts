/**
 * `kubectl cluster-info`: where the control plane runs, and the services
 * of the system namespace labelled `kubernetes.io/cluster-service=true`,
 * in kubectl's colours.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import type { Command } from '../command';

const green = (s: string) => `\x1b[0;32m${s}\x1b[0m`;
const yellow = (s: string) => `\x1b[0;33m${s}\x1b[0m`;

export const clusterInfoCommand: Command = {
  name: 'cluster-info',
  short: 'Display cluster information',
  subcommands: [
    {
      name: 'dump',
      short: 'Dump relevant information for debugging and diagnosis',
      async run(ctx) {
        ctx.err('error: cluster-info dump is not supported here\n');
        return 1;
      },
    },
  ],
  async run(ctx) {
    const config = await ctx.f.config();
    const client = await ctx.f.client();
    const services = await client.send<KubeList<KubeObject>>(
      'GET',
      '/api/v1/namespaces/kube-system/services?labelSelector=kubernetes.io%2Fcluster-service%3Dtrue',
    );
    ctx.out(`${green('Kubernetes control plane')} is running at ${yellow(config.connection.server)}\n`);
    for (const svc of services.body.items) {
      const labels = svc.metadata?.labels ?? {};
      const name = labels['kubernetes.io/name'] ?? svc.metadata?.name ?? '';
      const link = `${config.connection.server}/api/v1/namespaces/kube-system/services/${svc.metadata?.name}/proxy`;
      ctx.out(`${green(name)} is running at ${yellow(link)}\n`);
    }
    ctx.out("\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n");
    return 0;
  },
};
