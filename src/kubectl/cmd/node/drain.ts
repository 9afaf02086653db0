/**
 * `kubectl drain NODE`: cordons the node, then evicts its pods through the
 * `pods/eviction` subresource (or deletes them with `--disable-eviction`)
 * and waits until they are gone, printing kubectl's lines: "evicting pod
 * ns/name", "pod/name evicted", "node/name drained"; pods the filters
 * refuse make the node fail ("unable to drain node … continuing command",
 * then the pending nodes and the reasons); a PodDisruptionBudget's 429 is
 * retried every 5 s; `--timeout` bounds the whole node.
 */

import type { KubeList, KubeObject } from '../../../api/meta';
import { ApiError, withQuery } from '../../../client';
import type { Command, CommandContext } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { parseGoDurationText } from '../../flags/pflag';
import { makePrinter } from '../../printers/output';
import { dryRunStrategy, dryRunSuffix, type DryRun } from '../mutation';
import { nodeSelectionFlags, selectedNodes, setUnschedulable } from './cordon';
import { grouped, verdict, type DrainOptions, type PodVerdict } from './filters';

/** An error of one node's drain, in kubectl's words. */
class DrainError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

function podPath(pod: KubeObject, sub?: string): string {
  const ns = encodeURIComponent(pod.metadata?.namespace ?? '');
  const name = encodeURIComponent(pod.metadata?.name ?? '');
  return `/api/v1/namespaces/${ns}/pods/${name}${sub !== undefined ? `/${sub}` : ''}`;
}

/** The pods on a node with their verdicts (GetPodsForDeletion). */
async function podsForDeletion(
  ctx: CommandContext,
  node: string,
  options: DrainOptions,
): Promise<PodVerdict[]> {
  const client = await ctx.f.client();
  const query: Record<string, string> = { fieldSelector: `spec.nodeName=${node}` };
  if (ctx.flags.string('pod-selector') !== '') query['labelSelector'] = ctx.flags.string('pod-selector');
  const chunk = ctx.flags.int('chunk-size');
  if (chunk > 0) query['limit'] = String(chunk);
  const pods: KubeObject[] = [];
  for (;;) {
    const list = (await client.send<KubeList>('GET', withQuery('/api/v1/pods', query))).body;
    pods.push(...list.items.map((p) => ({ apiVersion: 'v1', kind: 'Pod', ...p })));
    const next = list.metadata?.continue;
    if (next === undefined || next === '') break;
    query['continue'] = next;
  }
  const verdicts: PodVerdict[] = [];
  for (const pod of pods) {
    const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
    let exists = true;
    if (owner?.kind === 'DaemonSet') {
      try {
        await client.send(
          'GET',
          `/apis/apps/v1/namespaces/${pod.metadata?.namespace ?? ''}/daemonsets/${encodeURIComponent(owner.name)}`,
        );
      } catch (error) {
        if (!(error instanceof ApiError && error.reason === 'NotFound')) throw error;
        exists = false;
      }
    }
    verdicts.push(verdict(pod, options, exists));
  }
  return verdicts;
}

/** Evicts (or deletes) one pod, retrying a disruption budget's refusal, then waits until it is gone. */
async function removePod(
  ctx: CommandContext,
  pod: KubeObject,
  dryRun: DryRun,
  deadline: number,
  signal: AbortSignal,
): Promise<void> {
  const client = await ctx.f.client();
  const evict = !ctx.flags.bool('disable-eviction');
  const grace = ctx.flags.int('grace-period');
  const deleteOptions: Record<string, unknown> = grace >= 0 ? { gracePeriodSeconds: grace } : {};
  if (dryRun === 'server') deleteOptions['dryRun'] = ['All'];
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  if (evict) ctx.out(`evicting pod ${namespace}/${name}\n`);
  for (;;) {
    try {
      if (evict)
        await client.send('POST', podPath(pod, 'eviction'), {
          body: {
            apiVersion: 'policy/v1',
            kind: 'Eviction',
            metadata: { name, namespace },
            deleteOptions,
          },
        });
      else await client.send('DELETE', podPath(pod), { body: deleteOptions });
      break;
    } catch (error) {
      if (error instanceof ApiError && error.reason === 'NotFound') break;
      if (evict && error instanceof ApiError && error.status.code === 429) {
        ctx.err(
          `error when evicting pods/"${name}" -n "${namespace}" (will retry after 5s): ${error.message}\n`,
        );
        await sleep(5000, signal);
        if (signal.aborted) throw new KubectlError('');
        continue;
      }
      throw new KubectlError(
        evict
          ? `error when evicting pods/"${name}" -n "${namespace}": ${error instanceof Error ? error.message : String(error)}`
          : error instanceof Error
            ? error.message
            : String(error),
      );
    }
  }
  if (dryRun !== 'server') {
    for (;;) {
      try {
        const now = (await client.send<KubeObject>('GET', podPath(pod))).body;
        if (now.metadata?.uid !== pod.metadata?.uid) break;
      } catch (error) {
        if (error instanceof ApiError && error.reason === 'NotFound') break;
        throw error;
      }
      if (signal.aborted || Date.now() >= deadline) return;
      await sleep(1000, signal);
    }
  }
  const printer = await makePrinter('name', {
    io: ctx.io,
    operation: evict ? 'evicted' : 'deleted',
    dryRunSuffix: dryRunSuffix(dryRun),
  });
  ctx.out(printer.print(pod));
}

/** Go's time.Duration text for whole milliseconds (`1m30s`, `5s`, `500ms`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}

async function drainNode(
  ctx: CommandContext,
  node: string,
  dryRun: DryRun,
  options: DrainOptions,
): Promise<void> {
  const verdicts = await podsForDeletion(ctx, node, options);
  const errors = grouped(verdicts, 'error');
  if (errors.length > 0) throw new DrainError(errors);
  const warnings = grouped(verdicts, 'warning');
  if (warnings.length > 0) ctx.err(`Warning: ${warnings.join('; ')}\n`);
  const pods = verdicts.filter((v) => v.delete).map((v) => v.pod);
  if (dryRun === 'client') {
    for (const pod of pods)
      ctx.out(`evicting pod ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} (dry run)\n`);
    return;
  }
  const timeout = parseGoDurationText(ctx.flags.string('timeout'));
  const deadline = timeout > 0 ? Date.now() + timeout : Number.POSITIVE_INFINITY;
  const stop = new AbortController();
  ctx.io.signal?.addEventListener('abort', () => stop.abort());
  const timer = timeout > 0 ? setTimeout(() => stop.abort(), timeout) : undefined;
  try {
    // kubectl starts one goroutine per pod; the newest runs first, the others in order.
    const ordered = pods.length > 1 ? [pods[pods.length - 1] as KubeObject, ...pods.slice(0, -1)] : pods;
    const results = await Promise.allSettled(
      ordered.map((p) => removePod(ctx, p, dryRun, deadline, stop.signal)),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw new DrainError([(failed.reason as Error).message]);
    if (stop.signal.aborted && timeout > 0 && Date.now() >= deadline)
      throw new DrainError([`drain did not complete within ${goDuration(timeout)}`]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

export const drainCommand: Command = {
  name: 'drain',
  short: 'Drain node in preparation for maintenance',
  flags: [
    ...nodeSelectionFlags,
    { name: 'force', type: 'bool', noOptDefVal: 'true' },
    { name: 'ignore-daemonsets', type: 'bool', noOptDefVal: 'true' },
    { name: 'delete-emptydir-data', type: 'bool', noOptDefVal: 'true' },
    { name: 'delete-local-data', type: 'bool', noOptDefVal: 'true', hidden: true },
    { name: 'grace-period', type: 'int', default: '-1' },
    { name: 'timeout', type: 'duration', default: '0s' },
    { name: 'pod-selector', type: 'string' },
    { name: 'disable-eviction', type: 'bool', noOptDefVal: 'true' },
    { name: 'skip-wait-for-delete-timeout', type: 'int', default: '0' },
    { name: 'chunk-size', type: 'int64', default: '500' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const dryRun = dryRunStrategy(ctx);
    if (f.changed.has('delete-local-data'))
      ctx.err(
        'Flag --delete-local-data has been deprecated, This option is deprecated and will be deleted. Use --delete-emptydir-data.\n',
      );
    const options: DrainOptions = {
      force: f.bool('force'),
      ignoreDaemonSets: f.bool('ignore-daemonsets'),
      deleteEmptyDirData: f.bool('delete-emptydir-data') || f.bool('delete-local-data'),
    };
    const errors: unknown[] = [];
    const nodes = await selectedNodes(ctx, 'drain NODE', errors);
    if (errors.length > 0) throw new AggregateError(errors);
    for (const node of nodes) await setUnschedulable(ctx, node, true, dryRun);
    const fatal: string[] = [];
    const remaining: string[] = [];
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      try {
        await drainNode(ctx, name, dryRun, options);
        const printer = await makePrinter('name', {
          io: ctx.io,
          operation: 'drained',
          dryRunSuffix: dryRunSuffix(dryRun),
        });
        ctx.out(printer.print(node));
      } catch (error) {
        if (!(error instanceof DrainError)) throw error;
        ctx.err(
          `error: unable to drain node "${name}" due to error:${error.message}, continuing command...\n`,
        );
        fatal.push(...error.errors);
        remaining.push(name);
      }
    }
    if (remaining.length > 0) {
      ctx.err(`There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`);
      throw new KubectlError(fatal.join('\n'));
    }
    return 0;
  },
};
