/**
 * What the rollout subcommands share: the resource flags (`-f`, `-R`,
 * `-k`, `-l`), the "required resource not specified" check, the objects
 * named by the arguments (a type alone lists them, `-l` filtering), and
 * the reads of a workload's history through the typed `apps/v1` paths
 * kubectl's clientset uses.
 */

import type { KubeList, KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { CommandContext } from '../../command';
import { KubectlError } from '../../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../../resource/builder';
import { resolveObjects, type Resolved } from '../../resource/visit';
import {
  controllerRevisions,
  deploymentRevisions,
  type Obj,
  type Revision,
  type WorkloadKind,
} from './workload';

export const resourceFlags = [
  ...filenameFlags,
  { name: 'selector', shorthand: 'l', type: 'string' as const },
];

/** The objects the command acts on, in argument order; errors of single objects are collected. */
export async function rolloutTargets(
  ctx: CommandContext,
  errors: unknown[],
): Promise<{ objects: Resolved[]; namespace: string }> {
  const filenames = ctx.flags.strings('filename');
  if (ctx.args.length === 0 && filenames.length === 0)
    throw new KubectlError('error: required resource not specified');
  const built =
    filenames.length > 0
      ? await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'))
      : await infosFromArgs(ctx, ctx.args);
  const objects = await resolveObjects(ctx, built.infos, errors, {
    labelSelector: ctx.flags.string('selector'),
  });
  return { objects, namespace: (await ctx.f.namespace()).namespace };
}

/** `metav1.LabelSelector` as a selector string (matchLabels and matchExpressions). */
export function selectorString(selector: unknown): string {
  const s = (selector ?? {}) as {
    matchLabels?: Record<string, string>;
    matchExpressions?: { key: string; operator: string; values?: string[] }[];
  };
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

/** A workload's revisions, read as kubectl's history viewers read them. */
export async function revisionsOf(
  ctx: CommandContext,
  kind: WorkloadKind,
  object: KubeObject,
): Promise<Revision[]> {
  const client = await ctx.f.client();
  const namespace = object.metadata?.namespace ?? '';
  const selector = selectorString((object['spec'] as Obj | undefined)?.['selector']);
  const resource = kind === 'Deployment' ? 'replicasets' : 'controllerrevisions';
  const list = (
    await client.send<KubeList>(
      'GET',
      withQuery(`/apis/apps/v1/namespaces/${namespace}/${resource}`, { labelSelector: selector }),
    )
  ).body;
  const items = list.items.map((i) => ({
    apiVersion: 'apps/v1',
    kind: kind === 'Deployment' ? 'ReplicaSet' : 'ControllerRevision',
    ...i,
  }));
  return kind === 'Deployment' ? deploymentRevisions(object, items) : controllerRevisions(object, items);
}
