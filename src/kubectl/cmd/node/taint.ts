/**
 * `kubectl taint nodes NAME… KEY[=VALUE]:EFFECT[-]…` (or `--all`, `-l`):
 * updates each node's taints with a strategic merge patch (field manager
 * `kubectl-taint`) and prints "tainted", "untainted" or "modified".
 */

import type { KubeList, KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command } from '../../command';
import { AggregateError, KubectlError, usageError } from '../../errors';
import { makePrinter, printFlags } from '../../printers/output';
import { dryRunFlag, dryRunStrategy, dryRunSuffix, validateFlag } from '../mutation';
import { conflicts, parseTaints, reorganizeTaints, splitTaintArgs, type Taint } from './taint-spec';

export const taintCommand: Command = {
  name: 'taint',
  short: 'Update the taints on one or more nodes',
  flags: [
    ...printFlags,
    dryRunFlag,
    validateFlag,
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'overwrite', type: 'bool', noOptDefVal: 'true' },
    { name: 'field-manager', type: 'string', default: 'kubectl-taint' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const dryRun = dryRunStrategy(ctx);
    let split: { resources: string[]; taints: string[] };
    let parsed: { add: Taint[]; remove: Taint[] };
    try {
      split = splitTaintArgs(ctx.args);
    } catch (error) {
      throw new KubectlError(`error: ${(error as Error).message}`);
    }
    if (split.taints.length === 0) throw new KubectlError('error: at least one taint update is required');
    try {
      parsed = parseTaints(split.taints);
    } catch (error) {
      throw usageError(ctx.path, (error as Error).message);
    }
    const [type, ...names] = split.resources;
    if (type === undefined)
      throw new KubectlError(
        "error: at least one resource name must be specified since 'all' parameter is not set",
      );
    const mapper = await ctx.f.mapper();
    const mapping = mapper.mappingFor(type.toLowerCase());
    if (mapping.resource !== 'nodes' || mapping.group !== '')
      throw new KubectlError(`error: invalid resource type ${type}, only node types are supported`);
    const clash = conflicts(parsed.add, parsed.remove);
    if (clash.length > 0)
      throw new KubectlError(
        `error: can not both modify and remove the following taint(s) in the same command: ${clash.join(', ')}`,
      );
    const all = f.bool('all');
    const selector = f.string('selector');
    if (all && selector !== '')
      throw new KubectlError("error: setting 'all' parameter with a non empty selector is prohibited");
    if (!all && selector === '' && names.length === 0)
      throw new KubectlError(
        "error: at least one resource name must be specified since 'all' parameter is not set",
      );
    const client = await ctx.f.client();
    const errors: unknown[] = [];
    let nodes: KubeObject[] = [];
    if (names.length > 0) {
      for (const name of names)
        try {
          nodes.push(
            (await client.send<KubeObject>('GET', `/api/v1/nodes/${encodeURIComponent(name)}`)).body,
          );
        } catch (error) {
          errors.push(error);
        }
    } else {
      const list = (
        await client.send<KubeList>(
          'GET',
          withQuery('/api/v1/nodes', selector !== '' ? { labelSelector: selector } : {}),
        )
      ).body;
      nodes = list.items.map((i) => ({ apiVersion: 'v1', kind: 'Node', ...i }));
    }
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const old = (((node['spec'] ?? {}) as { taints?: Taint[] }).taints ?? []) as Taint[];
      let result: { taints: Taint[]; operation: string };
      try {
        result = reorganizeTaints(name, old, parsed.add, parsed.remove, f.bool('overwrite'));
      } catch (error) {
        throw new KubectlError(`error: ${(error as Error).message}`);
      }
      const output = f.string('output');
      const printer = await makePrinter(output === '' ? 'name' : output, {
        io: ctx.io,
        operation: result.operation,
        dryRunSuffix: dryRunSuffix(dryRun),
        template: f.string('template'),
      });
      if (dryRun === 'client') {
        ctx.out(printer.print({ ...node, spec: { ...(node['spec'] as object), taints: result.taints } }));
        continue;
      }
      try {
        const query: Record<string, string> = { fieldManager: f.string('field-manager') };
        if (dryRun === 'server') query['dryRun'] = 'All';
        const patched = (
          await client.send<KubeObject>(
            'PATCH',
            withQuery(`/api/v1/nodes/${encodeURIComponent(name)}`, query),
            {
              body: { spec: { taints: result.taints.length > 0 ? result.taints : null } },
              contentType: 'application/strategic-merge-patch+json',
            },
          )
        ).body;
        ctx.out(printer.print(patched));
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
