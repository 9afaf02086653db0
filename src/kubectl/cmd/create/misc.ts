/**
 * `kubectl create quota|priorityclass NAME` and `kubectl create token SA`.
 */

import type { KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command } from '../../command';
import { KubectlError, usageError } from '../../errors';
import { makePrinter } from '../../printers/output';
import { generator, meta, sortedMap, typedPath } from './generator';

export const createQuota = generator({
  name: 'quota',
  aliases: ['resourcequota'],
  short: 'Create a quota with the specified name',
  flags: [
    { name: 'hard', type: 'string' },
    { name: 'scopes', type: 'string' },
  ],
  async build(ctx, name, namespace, enforce) {
    const hard: [string, string][] = [];
    const hardText = ctx.flags.string('hard');
    if (hardText !== '')
      for (const pair of hardText.split(',')) {
        const eq = pair.indexOf('=');
        if (eq < 0) throw new KubectlError(`error: invalid resource quota: ${pair}`);
        hard.push([pair.slice(0, eq), pair.slice(eq + 1)]);
      }
    const scopes = ctx.flags.string('scopes');
    const spec: Record<string, unknown> = {};
    if (hard.length > 0) spec['hard'] = sortedMap(hard);
    if (scopes !== '') spec['scopes'] = scopes.split(',');
    return {
      object: {
        kind: 'ResourceQuota',
        apiVersion: 'v1',
        metadata: meta(name, enforce ? namespace : undefined),
        spec,
        status: {},
      },
      path: typedPath('', 'v1', 'resourcequotas', namespace),
    };
  },
});

export const createPriorityClass = generator({
  name: 'priorityclass',
  aliases: ['pc'],
  short: 'Create a priority class with the specified name',
  flags: [
    { name: 'value', type: 'int' },
    { name: 'global-default', type: 'bool', noOptDefVal: 'true' },
    { name: 'description', type: 'string' },
    { name: 'preemption-policy', type: 'string', default: 'PreemptLowerPriority' },
  ],
  async build(ctx, name) {
    return {
      object: {
        kind: 'PriorityClass',
        apiVersion: `${ctx.f.names.group('scheduling.k8s.io')}/v1`,
        metadata: meta(name, undefined),
        value: ctx.flags.int('value'),
        ...(ctx.flags.bool('global-default') ? { globalDefault: true } : {}),
        ...(ctx.flags.string('description') !== '' ? { description: ctx.flags.string('description') } : {}),
        preemptionPolicy: ctx.flags.string('preemption-policy'),
      },
      path: typedPath(ctx.f.names.group('scheduling.k8s.io'), 'v1', 'priorityclasses'),
      wrapError: 'failed to create priorityclass',
    };
  },
});

function durationSeconds(text: string): number {
  const m = /^(\d+)(h|m|s)$/.exec(text);
  if (m === null) {
    const parts = [...text.matchAll(/(\d+)(h|m|s)/g)];
    if (parts.length === 0)
      throw new KubectlError(
        `error: invalid argument "${text}" for "--duration" flag: time: invalid duration "${text}"`,
      );
    return parts.reduce((s, p) => s + Number(p[1]) * { h: 3600, m: 60, s: 1 }[p[2] as 'h' | 'm' | 's'], 0);
  }
  return Number(m[1]) * { h: 3600, m: 60, s: 1 }[m[2] as 'h' | 'm' | 's'];
}

export const createToken: Command = {
  name: 'token',
  short: 'Request a service account token',
  flags: [
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'audience', type: 'stringArray' },
    { name: 'duration', type: 'duration', default: '0s' },
    { name: 'bound-object-kind', type: 'string' },
    { name: 'bound-object-name', type: 'string' },
    { name: 'bound-object-uid', type: 'string' },
  ],
  async run(ctx) {
    if (ctx.args.length !== 1)
      throw usageError(ctx.path, `exactly one NAME is required, got ${ctx.args.length}`);
    const name = ctx.args[0] as string;
    const { namespace } = await ctx.f.namespace();
    const duration = ctx.flags.string('duration');
    const seconds = duration === '0s' || duration === '0' ? 0 : durationSeconds(duration);
    const kind = ctx.flags.string('bound-object-kind');
    const spec: Record<string, unknown> = {};
    const audiences = ctx.flags.strings('audience');
    if (audiences.length > 0) spec['audiences'] = audiences;
    if (seconds > 0) spec['expirationSeconds'] = seconds;
    if (kind !== '') {
      if (!['Pod', 'Secret'].includes(kind))
        throw new KubectlError(`error: supported --bound-object-kind values are Pod, Secret`);
      spec['boundObjectRef'] = {
        kind,
        apiVersion: 'v1',
        name: ctx.flags.string('bound-object-name'),
        ...(ctx.flags.string('bound-object-uid') !== '' ? { uid: ctx.flags.string('bound-object-uid') } : {}),
      };
    }
    const request = {
      kind: 'TokenRequest',
      apiVersion: `${ctx.f.names.group('authentication.k8s.io')}/v1`,
      metadata: { creationTimestamp: null },
      spec,
      status: { token: '', expirationTimestamp: null },
    };
    const client = await ctx.f.client();
    const r = await client.send<KubeObject & { status?: { token?: string } }>(
      'POST',
      withQuery(`${typedPath('', 'v1', 'serviceaccounts', namespace)}/${encodeURIComponent(name)}/token`, {}),
      { body: request },
    );
    const output = ctx.flags.string('output');
    if (output === '') ctx.out(`${r.body.status?.token ?? ''}\n`);
    else {
      ctx.out((await makePrinter(output, { io: ctx.io })).print(r.body));
    }
    return 0;
  },
};
