/**
 * `kubectl set image TYPE/NAME CONTAINER=IMAGE…`: changes the images of a
 * pod spec's containers and init containers (`*` for all), sending a
 * strategic merge patch of the changed containers (field manager
 * `kubectl-set`) and printing "image updated"; an object already using the
 * images is left alone and prints nothing, an unknown container is an
 * error, as in kubectl.
 */

import type { KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command } from '../../command';
import { AggregateError, KubectlError, usageError } from '../../errors';
import { makePrinter, printFlags } from '../../printers/output';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../../resource/builder';
import { objectPath, resolveObjects } from '../../resource/visit';
import { dryRunFlag, dryRunStrategy, dryRunSuffix } from '../mutation';
import { nestPatch, noPodTemplate, podSpecOf, podSpecPath } from './pod-spec';

type Container = { name?: string; image?: string };

/** Splits the arguments into resources and `name=image` pairs (getResourcesAndImages). */
export function splitImages(args: string[]): { resources: string[]; images: Map<string, string> } {
  const resources: string[] = [];
  const images = new Map<string, string>();
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq < 0) resources.push(a);
    else images.set(a.slice(0, eq).trim(), a.slice(eq + 1));
  }
  return { resources, images };
}

/** The patch of the containers whose image changes, and the names nothing matched. */
export function imagePatch(
  spec: { containers?: Container[]; initContainers?: Container[] },
  images: Map<string, string>,
): { patch: Record<string, Container[]>; missing: string[] } {
  const patch: Record<string, Container[]> = {};
  const missing: string[] = [];
  for (const [name, image] of images) {
    let found = false;
    for (const field of ['containers', 'initContainers'] as const) {
      for (const c of spec[field] ?? []) {
        if (name !== '*' && c.name !== name) continue;
        found = true;
        if (c.image === image) continue;
        c.image = image;
        const list = (patch[field] ??= []);
        const existing = list.find((p) => p.name === c.name);
        if (existing !== undefined) existing.image = image;
        else list.push({ name: c.name ?? '', image });
      }
    }
    if (!found) missing.push(name);
  }
  return { patch, missing };
}

export const setImageCommand: Command = {
  name: 'image',
  short: 'Update the image of a pod template',
  flags: [
    ...printFlags,
    ...filenameFlags,
    dryRunFlag,
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'local', type: 'bool', noOptDefVal: 'true' },
    { name: 'record', type: 'bool', noOptDefVal: 'true' },
    { name: 'field-manager', type: 'string', default: 'kubectl-set' },
  ],
  async run(ctx) {
    const { resources, images } = splitImages(ctx.args);
    const filenames = ctx.flags.strings('filename');
    if (resources.length === 0 && filenames.length === 0)
      throw usageError(
        ctx.path,
        'one or more resources must be specified as <resource> <name> or <resource>/<name>',
      );
    if (images.size === 0) throw new KubectlError('error: at least one image update is required');
    const dryRun = dryRunStrategy(ctx);
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'))
        : await infosFromArgs(ctx, resources);
    const errors: unknown[] = [];
    const local = ctx.flags.bool('local');
    const objects = local
      ? built.infos.map((info) => ({ info, name: info.name ?? '', object: info.object as KubeObject }))
      : await resolveObjects(ctx, built.infos, errors, { labelSelector: ctx.flags.string('selector') });
    const client = await ctx.f.client();
    const output = ctx.flags.string('output');
    const printer = await makePrinter(output === '' ? 'name' : output, {
      io: ctx.io,
      operation: 'image updated',
      dryRunSuffix: dryRunSuffix(dryRun),
      template: ctx.flags.string('template'),
    });
    for (const { info, name, object } of objects) {
      const path = podSpecPath(object);
      if (path === undefined) {
        const m = info.mapping;
        errors.push(
          new KubectlError(
            `error: ${m.group === '' ? m.resource : `${m.resource}.${m.group}`}/${name} ${noPodTemplate(object)}`,
          ),
        );
        continue;
      }
      const copy = structuredClone(object);
      const { patch, missing } = imagePatch(podSpecOf(copy, path), images);
      for (const m of missing) errors.push(new KubectlError(`error: unable to find container named "${m}"`));
      if (Object.keys(patch).length === 0) continue;
      if (local || dryRun === 'client') {
        ctx.out(printer.print(copy));
        continue;
      }
      try {
        const query: Record<string, string> = { fieldManager: ctx.flags.string('field-manager') };
        if (dryRun === 'server') query['dryRun'] = 'All';
        const patched = (
          await client.send<KubeObject>('PATCH', withQuery(objectPath(info, name), query), {
            body: nestPatch(path, patch),
            contentType: 'application/strategic-merge-patch+json',
          })
        ).body;
        ctx.out(printer.print(patched));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.push(new KubectlError(`error: failed to patch image update to pod template: ${message}`));
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
