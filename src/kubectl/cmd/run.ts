/**
 * `kubectl run NAME --image=IMAGE [-- ARGS]`: a Pod labelled `run=NAME`
 * with one container, created as kubectl's generator builds it.
 */

import type { Command } from '../command';
import { generator, meta, typedPath } from './create/generator';

const pod = generator({
  name: 'run',
  short: 'Run a particular image on the cluster',
  flags: [
    { name: 'image', type: 'string' },
    { name: 'labels', shorthand: 'l', type: 'string' },
    { name: 'env', type: 'stringArray' },
    { name: 'port', type: 'string' },
    { name: 'restart', type: 'string', default: 'Always' },
    { name: 'command', type: 'bool', noOptDefVal: 'true' },
    { name: 'image-pull-policy', type: 'string' },
    { name: 'annotations', type: 'stringArray' },
    { name: 'serviceaccount', type: 'string' },
  ],
  required: ['image'],
  async build(ctx, name, namespace, enforce) {
    const dash = ctx.flags.argsLenAtDash;
    const extra = dash >= 0 ? ctx.args.slice(dash) : ctx.args.slice(1);
    const labels: Record<string, string> = {};
    const labelText = ctx.flags.string('labels');
    if (labelText !== '')
      for (const pair of labelText.split(',')) {
        const [k = '', v = ''] = pair.split('=');
        labels[k] = v;
      }
    else labels['run'] = name;
    const annotations: Record<string, string> = {};
    for (const a of ctx.flags.strings('annotations')) {
      const eq = a.indexOf('=');
      annotations[a.slice(0, eq)] = a.slice(eq + 1);
    }
    const container: Record<string, unknown> = { name, image: ctx.flags.string('image') };
    if (extra.length > 0) container[ctx.flags.bool('command') ? 'command' : 'args'] = extra;
    const port = ctx.flags.string('port');
    if (port !== '') container['ports'] = [{ containerPort: Number(port) }];
    const env = ctx.flags.strings('env').map((e) => {
      const eq = e.indexOf('=');
      return { name: e.slice(0, eq), value: e.slice(eq + 1) };
    });
    if (env.length > 0) container['env'] = env;
    container['resources'] = {};
    if (ctx.flags.string('image-pull-policy') !== '')
      container['imagePullPolicy'] = ctx.flags.string('image-pull-policy');
    const spec: Record<string, unknown> = {
      containers: [container],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: ctx.flags.string('restart'),
    };
    if (ctx.flags.string('serviceaccount') !== '')
      spec['serviceAccountName'] = ctx.flags.string('serviceaccount');
    return {
      object: {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined, {
          labels,
          ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        }),
        spec,
        status: {},
      },
      path: typedPath('', 'v1', 'pods', namespace),
    };
  },
});

export const runCommand: Command = { ...pod, name: 'run' };
