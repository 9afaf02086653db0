/**
 * `kubectl logs POD [-c CONTAINER]` (or `TYPE/NAME`, whose first pod is
 * used) and `kubectl exec POD -- COMMAND`: the pods/log and pods/exec
 * subresources. Logs stream with `-f` until the server ends them or
 * Ctrl-C; exec sends the command and prints what the server answers.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import { ApiError, errorFromResponse, withQuery, type QueryParams } from '../../client';
import type { Command, CommandContext } from '../command';
import { KubectlError, usageError } from '../errors';
import { parseGoDurationText } from '../flags/pflag';

interface PodLike extends KubeObject {
  spec?: { containers?: { name: string }[] };
}

async function findPod(ctx: CommandContext, arg: string): Promise<PodLike> {
  const client = await ctx.f.client();
  const { namespace } = await ctx.f.namespace();
  const ns = encodeURIComponent(namespace);
  if (!arg.includes('/') || arg.startsWith('pod/') || arg.startsWith('pods/') || arg.startsWith('po/')) {
    const name = arg.includes('/') ? arg.slice(arg.indexOf('/') + 1) : arg;
    return (await client.send<PodLike>('GET', `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(name)}`))
      .body;
  }
  const mapper = await ctx.f.mapper();
  const [type = '', name = ''] = arg.split('/');
  const m = mapper.mappingFor(type);
  const base = m.group === '' ? `/api/${m.version}` : `/apis/${m.group}/${m.version}`;
  const owner = (
    await client.send<KubeObject & { spec?: { selector?: { matchLabels?: Record<string, string> } } }>(
      'GET',
      `${base}/namespaces/${ns}/${m.resource}/${encodeURIComponent(name)}`,
    )
  ).body;
  const selector = Object.entries(owner.spec?.selector?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const pods = (
    await client.send<KubeList<PodLike>>(
      'GET',
      withQuery(`/api/v1/namespaces/${ns}/pods`, { labelSelector: selector }),
    )
  ).body.items;
  const pod = pods[0];
  if (pod === undefined) throw new KubectlError(`error: no pods found for ${arg}`);
  return pod;
}

function containerOf(ctx: CommandContext, pod: PodLike): string {
  const chosen = ctx.flags.string('container');
  if (chosen !== '') return chosen;
  const containers = pod.spec?.containers ?? [];
  const annotated = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
  if (annotated !== undefined) return annotated;
  if (containers.length > 1)
    ctx.err(
      `Defaulted container "${containers[0]?.name}" out of: ${containers.map((c) => c.name).join(', ')}\n`,
    );
  return containers[0]?.name ?? '';
}

export const logsCommand: Command = {
  name: 'logs',
  short: 'Print the logs for a container in a pod',
  flags: [
    { name: 'container', shorthand: 'c', type: 'string' },
    { name: 'follow', shorthand: 'f', type: 'bool', noOptDefVal: 'true' },
    { name: 'previous', shorthand: 'p', type: 'bool', noOptDefVal: 'true' },
    { name: 'tail', type: 'int64', default: '-1' },
    { name: 'timestamps', type: 'bool', noOptDefVal: 'true' },
    { name: 'since', type: 'duration', default: '0s' },
    { name: 'since-time', type: 'string' },
    { name: 'limit-bytes', type: 'int64', default: '0' },
    { name: 'all-containers', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'prefix', type: 'bool', noOptDefVal: 'true' },
    { name: 'pod-running-timeout', type: 'duration', default: '20s' },
  ],
  async run(ctx) {
    if (ctx.args.length === 0)
      throw usageError(ctx.path, 'expected POD or TYPE/NAME is a required argument for the logs command');
    const pod = await findPod(ctx, ctx.args[0] as string);
    const client = await ctx.f.client();
    const f = ctx.flags;
    const containers = f.bool('all-containers')
      ? (pod.spec?.containers ?? []).map((c) => c.name)
      : [containerOf(ctx, pod)];
    for (const container of containers) {
      const query: QueryParams = { container };
      if (f.bool('follow')) query['follow'] = true;
      if (f.bool('previous')) query['previous'] = true;
      if (f.int('tail') >= 0) query['tailLines'] = f.int('tail');
      if (f.bool('timestamps')) query['timestamps'] = true;
      const since = f.string('since');
      if (since !== '0s' && since !== '0')
        query['sinceSeconds'] = Math.ceil(parseGoDurationText(since) / 1000);
      if (f.string('since-time') !== '') query['sinceTime'] = f.string('since-time');
      if (f.int('limit-bytes') > 0) query['limitBytes'] = f.int('limit-bytes');
      const path = withQuery(
        `/api/v1/namespaces/${encodeURIComponent(pod.metadata?.namespace ?? '')}/pods/${encodeURIComponent(pod.metadata?.name ?? '')}/log`,
        query,
      );
      const response = await client.raw('GET', path, {
        ...(ctx.io.signal !== undefined ? { signal: ctx.io.signal } : {}),
      });
      if (!response.ok) throw await errorFromResponse(response);
      if (response.body === null) continue;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          ctx.out(
            f.bool('prefix') ? value.replace(/^(?=.)/gm, `[pod/${pod.metadata?.name}/${container}] `) : value,
          );
        }
      } catch (error) {
        if (!ctx.io.signal?.aborted) throw error;
      }
    }
    return 0;
  },
};

export const execCommand: Command = {
  name: 'exec',
  short: 'Execute a command in a container',
  flags: [
    { name: 'container', shorthand: 'c', type: 'string' },
    { name: 'stdin', shorthand: 'i', type: 'bool', noOptDefVal: 'true' },
    { name: 'tty', shorthand: 't', type: 'bool', noOptDefVal: 'true' },
    { name: 'quiet', shorthand: 'q', type: 'bool', noOptDefVal: 'true' },
    { name: 'filename', shorthand: 'f', type: 'stringSlice' },
    { name: 'pod-running-timeout', type: 'duration', default: '1m0s' },
  ],
  async run(ctx) {
    const dash = ctx.flags.argsLenAtDash;
    const target = ctx.args[0];
    const command = dash >= 0 ? ctx.args.slice(dash) : ctx.args.slice(1);
    if (target === undefined || (dash === 0 && ctx.args.length > 0))
      throw usageError(ctx.path, 'pod or type/name must be specified');
    if (command.length === 0)
      throw usageError(ctx.path, 'you must specify at least one command for the container');
    const pod = await findPod(ctx, target);
    const container = containerOf(ctx, pod);
    const client = await ctx.f.client();
    const search = new URLSearchParams();
    for (const c of command) search.append('command', c);
    search.set('container', container);
    if (ctx.flags.bool('stdin')) search.set('stdin', 'true');
    search.set('stdout', 'true');
    search.set('stderr', 'true');
    if (ctx.flags.bool('tty')) search.set('tty', 'true');
    const path = `/api/v1/namespaces/${encodeURIComponent(pod.metadata?.namespace ?? '')}/pods/${encodeURIComponent(pod.metadata?.name ?? '')}/exec?${search}`;
    const response = await client.raw('POST', path, {
      body: ctx.flags.bool('stdin') ? await ctx.io.stdin() : '',
    });
    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (error instanceof ApiError) throw error;
    }
    ctx.out(await response.text());
    return 0;
  },
};
