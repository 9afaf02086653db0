/**
 * `kubectl rollout undo TYPE/NAME [--to-revision=N]`: puts a revision's pod
 * template back. A Deployment gets a JSON patch of its template (the
 * ReplicaSet's, without `pod-template-hash`) and of its annotations (the
 * ReplicaSet's, keeping the Deployment's own bookkeeping ones); a DaemonSet
 * or StatefulSet gets the ControllerRevision's data as a strategic merge
 * patch. A template that already matches is "skipped rollback"; a paused
 * Deployment is refused; `--dry-run=client` prints the template instead.
 */

import type { KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { makePrinter, printFlags } from '../../printers/output';
import { objectPath } from '../../resource/visit';
import { dryRunFlag, dryRunStrategy, dryRunSuffix } from '../mutation';
import { templateText } from './history';
import { resourceFlags, revisionsOf, rolloutTargets } from './targets';
import {
  canonical,
  equalIgnoringHash,
  groupKindString,
  groupKindStruct,
  podTemplateHashLabel,
  RolloutError,
  undoTarget,
  workloadKind,
  type Obj,
} from './workload';

/** Annotations a rollback leaves as the Deployment has them (kubectl's annotationsToSkip). */
const kept = [
  'kubectl.kubernetes.io/last-applied-configuration',
  'deployment.kubernetes.io/revision',
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
];

/**
 * A template as kubectl's typed structs marshal it (getDaemonSetPatch
 * compares bytes): `metadata.creationTimestamp: null` and each container's
 * `resources: {}` are always written, so a revision stored without them
 * does not match.
 */
export function typedTemplate(template: Obj): Obj {
  const spec = (template['spec'] ?? {}) as Obj;
  const typed = (list: unknown) =>
    Array.isArray(list) ? list.map((c: Obj) => ({ resources: {}, ...c })) : list;
  return {
    ...template,
    metadata: { creationTimestamp: null, ...((template['metadata'] ?? {}) as Obj) },
    spec: {
      ...spec,
      containers: typed(spec['containers']),
      ...(spec['initContainers'] !== undefined ? { initContainers: typed(spec['initContainers']) } : {}),
    },
  };
}

/** The annotations a Deployment gets back with a revision. */
export function rollbackAnnotations(
  deployment: Record<string, string>,
  replicaSet: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of kept) if (deployment[k] !== undefined) out[k] = deployment[k];
  for (const [k, v] of Object.entries(replicaSet)) if (!kept.includes(k)) out[k] = v;
  return out;
}

export const rolloutUndoCommand: Command = {
  name: 'undo',
  short: 'Undo a previous rollout',
  flags: [...resourceFlags, ...printFlags, dryRunFlag, { name: 'to-revision', type: 'int64', default: '0' }],
  async run(ctx) {
    const toRevision = ctx.flags.int('to-revision');
    const dryRun = dryRunStrategy(ctx);
    const errors: unknown[] = [];
    const { objects } = await rolloutTargets(ctx, errors);
    const client = await ctx.f.client();
    const print = async (object: KubeObject, operation: string) => {
      const output = ctx.flags.string('output');
      const printer = await makePrinter(output === '' ? 'name' : output, {
        io: ctx.io,
        operation,
        dryRunSuffix: dryRunSuffix(dryRun),
        template: ctx.flags.string('template'),
      });
      ctx.out(printer.print(object));
    };
    for (const { info, name, object } of objects) {
      const kind = workloadKind(info.mapping);
      if (kind === undefined) {
        errors.push(
          new KubectlError(
            `error: error retrieving rollbacker for "${groupKindString(info.mapping)}", no visitor method exists for ${groupKindStruct(info.mapping)}`,
          ),
        );
        continue;
      }
      try {
        const spec = (object['spec'] ?? {}) as Obj;
        if (kind === 'Deployment' && spec['paused'] === true)
          throw new RolloutError(
            "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
          );
        if (toRevision < 0)
          throw new RolloutError(`unable to find specified revision ${toRevision} in history`);
        const revisions = await revisionsOf(ctx, kind, object);
        const target = undoTarget(kind, name, revisions, toRevision);
        if (dryRun === 'client') {
          await print(object, templateText(target.template));
          continue;
        }
        const current = (spec['template'] ?? {}) as Obj;
        const matches =
          kind === 'Deployment'
            ? equalIgnoringHash(target.template, current)
            : canonical(target.template) === canonical(typedTemplate(current));
        if (matches) {
          await print(
            object,
            `skipped rollback (current template already matches revision ${target.revision})`,
          );
          continue;
        }
        const query = dryRun === 'server' ? { dryRun: 'All' } : {};
        let patched: KubeObject;
        if (kind === 'Deployment') {
          const template = structuredClone(target.template);
          const meta = (template['metadata'] ?? {}) as { labels?: Record<string, string> };
          if (meta.labels !== undefined) delete meta.labels[podTemplateHashLabel];
          const annotations = rollbackAnnotations(
            object.metadata?.annotations ?? {},
            target.source.metadata?.annotations ?? {},
          );
          const patch = [
            { op: 'replace', path: '/spec/template', value: template },
            { op: 'replace', path: '/metadata/annotations', value: annotations },
          ];
          try {
            patched = (
              await client.send<KubeObject>('PATCH', withQuery(objectPath(info, name), query), {
                body: patch,
                contentType: 'application/json-patch+json',
              })
            ).body;
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            throw new RolloutError(`failed restoring revision ${target.revision}: ${message}`);
          }
        } else {
          patched = (
            await client.send<KubeObject>('PATCH', withQuery(objectPath(info, name), query), {
              body: target.source['data'],
              contentType: 'application/strategic-merge-patch+json',
            })
          ).body;
        }
        await print(patched.metadata !== undefined ? patched : object, 'rolled back');
      } catch (error) {
        errors.push(error instanceof RolloutError ? new KubectlError(`error: ${error.message}`) : error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
