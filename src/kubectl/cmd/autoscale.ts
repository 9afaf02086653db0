/**
 * `kubectl autoscale TYPE NAME --max=N [--min=N] [--cpu-percent=N]`: an
 * `autoscaling/v1` HorizontalPodAutoscaler for each scalable object (named
 * after it unless `--name`), created through the typed path kubectl's
 * client uses. Without `--cpu-percent` no target is sent and the server's
 * defaulting gives the 80% CPU metric.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../resource/builder';
import { resolveObjects } from '../resource/visit';
import { checkOutput, dryRunStrategy, printResult, writeFlags, writeQuery } from './mutation';

/** Kinds with a scale subresource kubectl's discovery finds on a plain server. */
const scalable = new Set(['deployments', 'replicasets', 'replicationcontrollers', 'statefulsets']);

/** The HorizontalPodAutoscaler kubectl builds, in its struct order. */
export function autoscaler(
  name: string,
  target: { apiVersion: string; kind: string; name: string },
  min: number,
  max: number,
  cpuPercent: number,
): KubeObject {
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v1',
    metadata: { name, creationTimestamp: null },
    spec: {
      scaleTargetRef: target,
      ...(min > -1 ? { minReplicas: min } : {}),
      maxReplicas: max,
      ...(cpuPercent >= 0 ? { targetCPUUtilizationPercentage: cpuPercent } : {}),
    },
    status: { currentReplicas: 0, desiredReplicas: 0 },
  } as KubeObject;
}

export const autoscaleCommand: Command = {
  name: 'autoscale',
  short: 'Auto-scale a deployment, replica set, stateful set, or replication controller',
  flags: [
    ...writeFlags('kubectl-autoscale').filter((f) => f.name !== 'validate'),
    ...filenameFlags,
    { name: 'name', type: 'string' },
    { name: 'min', type: 'int', default: '-1' },
    { name: 'max', type: 'int', default: '-1' },
    { name: 'cpu-percent', type: 'int', default: '-1' },
    { name: 'record', type: 'bool', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    if (!f.changed.has('max')) throw new KubectlError('error: required flag(s) "max" not set');
    const min = f.int('min');
    const max = f.int('max');
    if (max < 1)
      throw new KubectlError(`error: --max=MAXPODS is required and must be at least 1, max: ${max}`);
    if (max < min)
      throw new KubectlError(
        `error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`,
      );
    const dryRun = dryRunStrategy(ctx);
    await checkOutput(ctx);
    const filenames = f.strings('filename');
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args);
    const errors: unknown[] = [];
    const objects = await resolveObjects(ctx, built.infos, errors);
    const client = await ctx.f.client();
    for (const { info, name, object } of objects) {
      const m = info.mapping;
      if (!scalable.has(m.resource) || (m.group !== '' && m.group !== 'apps')) {
        errors.push(
          new KubectlError(
            `error: cannot autoscale a ${m.kind}: could not find scale subresource for ${m.group}/${m.version}, Resource=${m.resource} in discovery information`,
          ),
        );
        continue;
      }
      const hpa = autoscaler(
        f.string('name') !== '' ? f.string('name') : name,
        { apiVersion: object.apiVersion ?? '', kind: object.kind ?? m.kind, name },
        min,
        max,
        f.int('cpu-percent'),
      );
      try {
        if (dryRun === 'client') {
          await printResult(ctx, hpa, 'autoscaled', dryRun, true);
          continue;
        }
        const query = writeQuery(ctx, dryRun);
        delete query['fieldValidation'];
        const created = (
          await client.send<KubeObject>(
            'POST',
            withQuery(`/apis/autoscaling/v1/namespaces/${info.namespace}/horizontalpodautoscalers`, query),
            { body: { ...hpa, metadata: { name: hpa.metadata?.name } } },
          )
        ).body;
        await printResult(ctx, created, 'autoscaled', dryRun);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
