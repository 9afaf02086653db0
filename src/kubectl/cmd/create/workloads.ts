/**
 * `kubectl create deployment|job|cronjob NAME --image …`: the workload
 * generators. Containers are named after the image (deployment) or the
 * object (job, cronjob); words after `--` are the container's command.
 */

import type { CommandContext } from '../../command';
import { KubectlError } from '../../errors';
import { generator, meta, typedPath } from './generator';

function command(ctx: CommandContext): string[] | undefined {
  const dash = ctx.flags.argsLenAtDash;
  if (dash < 0) return undefined;
  const words = ctx.args.slice(dash);
  return words.length > 0 ? words : undefined;
}

function containerName(image: string): string {
  let name = image.split('/').pop() as string;
  if (name.includes(':')) name = name.split(':')[0] as string;
  if (name.includes('@')) name = name.split('@')[0] as string;
  return name.replaceAll('_', '-');
}

export const createDeployment = generator({
  name: 'deployment',
  aliases: ['deploy'],
  short: 'Create a deployment with the specified name',
  flags: [
    { name: 'image', type: 'stringSlice' },
    { name: 'port', type: 'int', default: '-1' },
    { name: 'replicas', shorthand: 'r', type: 'int', default: '1' },
  ],
  required: ['image'],
  async build(ctx, name, namespace, enforce) {
    const images = ctx.flags.strings('image');
    const cmd = command(ctx);
    const used = new Set<string>();
    const containers = images.map((image) => {
      let n = containerName(image);
      if (used.has(n)) {
        let i = 1;
        while (used.has(`${n}-${i}`)) i++;
        n = `${n}-${i}`;
      }
      used.add(n);
      return { name: n, image, ...(cmd !== undefined ? { command: cmd } : {}), resources: {} } as Record<
        string,
        unknown
      >;
    });
    const port = ctx.flags.int('port');
    if (port >= 0 && containers.length > 0) {
      const first = containers[0] as Record<string, unknown>;
      const { resources, ...rest } = first;
      containers[0] = { ...rest, ports: [{ containerPort: port }], resources };
    }
    const labels = { app: name };
    return {
      object: {
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        metadata: meta(name, enforce ? namespace : undefined, { labels }),
        spec: {
          replicas: ctx.flags.int('replicas'),
          selector: { matchLabels: labels },
          template: { metadata: { creationTimestamp: null, labels }, spec: { containers } },
          strategy: {},
        },
        status: {},
      },
      path: typedPath('apps', 'v1', 'deployments', namespace),
    };
  },
});

export const createJob = generator({
  name: 'job',
  short: 'Create a job with the specified name',
  flags: [
    { name: 'image', type: 'string' },
    { name: 'from', type: 'string' },
  ],
  async build(ctx, name, namespace, enforce) {
    if (ctx.flags.string('image') === '' && ctx.flags.string('from') === '')
      throw new KubectlError('error: either --image or --from must be specified');
    if (ctx.flags.string('from') !== '') throw new KubectlError('error: --from is not supported here');
    const cmd = command(ctx);
    return {
      object: {
        kind: 'Job',
        apiVersion: 'batch/v1',
        metadata: meta(name, enforce ? namespace : undefined),
        spec: {
          template: {
            metadata: { creationTimestamp: null },
            spec: {
              containers: [
                {
                  name,
                  image: ctx.flags.string('image'),
                  ...(cmd !== undefined ? { command: cmd } : {}),
                  resources: {},
                },
              ],
              restartPolicy: 'Never',
            },
          },
        },
        status: {},
      },
      path: typedPath('batch', 'v1', 'jobs', namespace),
    };
  },
});

export const createCronJob = generator({
  name: 'cronjob',
  aliases: ['cj'],
  short: 'Create a cron job with the specified name',
  flags: [
    { name: 'image', type: 'string' },
    { name: 'schedule', type: 'string' },
    { name: 'restart', type: 'string' },
  ],
  required: ['image', 'schedule'],
  async build(ctx, name, namespace, enforce) {
    const cmd = command(ctx);
    const restart = ctx.flags.string('restart') || 'OnFailure';
    return {
      object: {
        kind: 'CronJob',
        apiVersion: 'batch/v1',
        metadata: meta(name, enforce ? namespace : undefined),
        spec: {
          schedule: ctx.flags.string('schedule'),
          jobTemplate: {
            metadata: { name, creationTimestamp: null },
            spec: {
              template: {
                metadata: { creationTimestamp: null },
                spec: {
                  containers: [
                    {
                      name,
                      image: ctx.flags.string('image'),
                      ...(cmd !== undefined ? { command: cmd } : {}),
                      resources: {},
                    },
                  ],
                  restartPolicy: restart,
                },
              },
            },
          },
        },
        status: {},
      },
      path: typedPath('batch', 'v1', 'cronjobs', namespace),
    };
  },
});
