/**
 * `kubectl describe`: each named object (or every object of a type,
 * filtered by `-l`) through the describer kubectl has for its kind, or
 * the generic one; descriptions separated by a blank line. A name that is
 * not found describes the objects whose names start with it, as kubectl
 * does, and fails with the NotFound only when there are none.
 */

import type { KubeList, KubeObject } from '../../api/meta';
import { ApiError, withQuery } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { describerFor } from '../describe/describers';
import { filenameFlags, infosFromArgs, infosFromFiles, type Info } from '../resource/builder';
import { objectPath } from '../resource/visit';

export const describeCommand: Command = {
  name: 'describe',
  short: 'Show details of a specific resource or group of resources',
  flags: [
    ...filenameFlags,
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'show-events', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'chunk-size', type: 'int64', default: '500' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const filenames = f.strings('filename');
    if (ctx.args.length === 0 && filenames.length === 0)
      throw new KubectlError(
        'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.',
      );
    const allNamespaces = f.bool('all-namespaces');
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args, { allNamespaces });
    const client = await ctx.f.client();
    const dctx = {
      client,
      now: ctx.io.now(),
      showEvents: f.bool('show-events'),
      chunkSize: f.int('chunk-size'),
    };
    const errors: unknown[] = [];
    const targets: { info: Info; object: KubeObject }[] = [];
    for (const info of built.infos) {
      try {
        if (info.name !== undefined) {
          const object = (await client.send<KubeObject>('GET', objectPath(info, info.name))).body;
          targets.push({ info, object });
          continue;
        }
        const selector = f.string('selector');
        const list = (
          await client.send<KubeList>(
            'GET',
            withQuery(objectPath(info), selector ? { labelSelector: selector } : {}),
          )
        ).body;
        const kind = list.kind.replace(/List$/, '');
        for (const item of list.items)
          targets.push({ info, object: { apiVersion: list.apiVersion, kind, ...item } });
      } catch (error) {
        if (
          error instanceof ApiError &&
          error.reason === 'NotFound' &&
          info.name !== undefined &&
          ctx.args.length === 2 &&
          !ctx.args[1]?.includes('/')
        ) {
          // DescribeMatchingResources: objects whose names start with the typed name.
          const list = (await client.send<KubeList>('GET', objectPath(info))).body;
          const kind = list.kind.replace(/List$/, '');
          const matching = list.items.filter((i) => (i.metadata?.name ?? '').startsWith(info.name as string));
          if (matching.length === 0) errors.push(error);
          for (const item of matching)
            targets.push({ info, object: { apiVersion: list.apiVersion, kind, ...item } });
          continue;
        }
        errors.push(error);
      }
    }
    let first = true;
    for (const { info, object } of targets) {
      try {
        const text = await describerFor(info.mapping)(
          dctx,
          info.mapping,
          object as KubeObject & Record<string, unknown>,
        );
        ctx.out(first ? text : `\n\n${text}`);
        first = false;
      } catch (error) {
        errors.push(error);
      }
    }
    if (targets.length === 0 && errors.length === 0) {
      const { namespace } = await ctx.f.namespace();
      ctx.err(allNamespaces ? 'No resources found\n' : `No resources found in ${namespace} namespace.\n`);
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
