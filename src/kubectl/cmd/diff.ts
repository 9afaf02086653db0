/**
 * `kubectl diff -f FILE`: what applying the files would change, as a
 * unified diff (`diff -u -N`) between the live objects and the objects a
 * server-side dry run of the apply returns, each written as YAML without
 * managedFields under `LIVE-…` and `MERGED-…` folders named like kubectl's
 * temporary ones. Exit code 1 when something differs, as kubectl's.
 */

import type { KubeObject } from '../../api/meta';
import { ApiError, withQuery } from '../../client';
import type { Command } from '../command';
import { KubectlError } from '../errors';
import { goJson } from '../printers/json';
import { withoutManagedFields } from '../printers/output';
import { toYaml } from '../printers/yaml';
import { filenameFlags, infosFromFiles } from '../resource/builder';
import { objectPath } from '../resource/visit';
import { isStrategic } from './apply';
import { lastAppliedAnnotation, modifiedConfiguration } from './apply/last-applied';
import { threeWayPatch } from './apply/three-way';
import { unifiedDiff } from './diff/unified';

function randomDigits(): string {
  return String(Math.floor(Math.random() * 4e9) + 1e8);
}

function goStamp(now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const nanos = String(now.getUTCMilliseconds() * 1e6).padStart(9, '0');
  return `${now.getUTCFullYear()}-${two(now.getUTCMonth() + 1)}-${two(now.getUTCDate())} ${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}.${nanos} +0000`;
}

export const diffCommand: Command = {
  name: 'diff',
  short: 'Diff the live version against a would-be applied version',
  flags: [
    ...filenameFlags,
    { name: 'server-side', type: 'bool', noOptDefVal: 'true' },
    { name: 'force-conflicts', type: 'bool', noOptDefVal: 'true' },
    { name: 'field-manager', type: 'string', default: 'kubectl-client-side-apply' },
    { name: 'prune', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'show-managed-fields', type: 'bool', noOptDefVal: 'true' },
    { name: 'concurrency', type: 'int', default: '1' },
  ],
  async run(ctx) {
    const filenames = ctx.flags.strings('filename');
    if (filenames.length === 0) throw new KubectlError('error: must specify one of -f and -k');
    const { infos } = await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'));
    const client = await ctx.f.client();
    const liveDir = `/tmp/LIVE-${randomDigits()}`;
    const mergedDir = `/tmp/MERGED-${randomDigits()}`;
    let out = '';
    for (const info of infos) {
      const object: KubeObject = JSON.parse(JSON.stringify(info.object)) as KubeObject;
      if (info.mapping.namespaced) object.metadata = { ...object.metadata, namespace: info.namespace };
      const name = info.name ?? '';
      let live: KubeObject | undefined;
      try {
        live = (await client.send<KubeObject>('GET', objectPath(info, name))).body;
      } catch (error) {
        if (!(error instanceof ApiError && error.reason === 'NotFound')) throw error;
      }
      let merged: KubeObject;
      if (ctx.flags.bool('server-side')) {
        merged = (
          await client.send<KubeObject>(
            'PATCH',
            withQuery(objectPath(info, name), {
              dryRun: 'All',
              fieldManager: ctx.flags.changed.has('field-manager')
                ? ctx.flags.string('field-manager')
                : 'kubectl',
              force: ctx.flags.bool('force-conflicts'),
            }),
            {
              body: goJson(object),
              contentType: 'application/apply-patch+yaml',
            },
          )
        ).body;
      } else if (live === undefined) {
        merged = (
          await client.send<KubeObject>(
            'POST',
            withQuery(objectPath(info), { dryRun: 'All', fieldManager: ctx.flags.string('field-manager') }),
            { body: object },
          )
        ).body;
      } else {
        const annotations = live.metadata?.annotations ?? {};
        let original: unknown;
        try {
          original =
            annotations[lastAppliedAnnotation] !== undefined
              ? JSON.parse(annotations[lastAppliedAnnotation])
              : undefined;
        } catch {
          original = undefined;
        }
        // kubectl diff patches with the configuration as applied, without recording it (no annotation).
        const modified = JSON.parse(modifiedConfiguration(object)) as Record<string, unknown>;
        const strategic = isStrategic(info.mapping.group);
        const patch = threeWayPatch(original, modified, live, strategic);
        merged = (
          await client.send<KubeObject>(
            'PATCH',
            withQuery(objectPath(info, name), {
              dryRun: 'All',
              fieldManager: ctx.flags.string('field-manager'),
            }),
            {
              body: goJson(patch),
              contentType: strategic
                ? 'application/strategic-merge-patch+json'
                : 'application/merge-patch+json',
            },
          )
        ).body;
      }
      const show = ctx.flags.bool('show-managed-fields');
      const text = (o: KubeObject | undefined) =>
        o === undefined ? '' : toYaml(show ? o : withoutManagedFields(o));
      const file = [info.mapping.group, info.mapping.version, info.mapping.kind, info.namespace, name]
        .filter((p) => p !== '')
        .join('.');
      const hunks = unifiedDiff(text(live), text(merged));
      if (hunks === '') continue;
      const stamp = goStamp(ctx.io.now());
      out += `diff -u -N ${liveDir}/${file} ${mergedDir}/${file}\n--- ${liveDir}/${file}\t${stamp}\n+++ ${mergedDir}/${file}\t${stamp}\n${hunks}`;
    }
    ctx.out(out);
    return out === '' ? 0 : 1;
  },
};
