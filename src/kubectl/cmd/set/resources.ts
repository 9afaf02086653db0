/**
 * `kubectl set resources TYPE/NAME [-c NAME] --limits=… --requests=…`:
 * merges resource limits and requests into the matching containers of a
 * pod spec (`*` or a glob by default), sending a strategic merge patch of
 * the changed containers and printing "resource requirements updated";
 * nothing changed prints nothing, as in kubectl.
 */

import type { KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command } from '../../command';
import { AggregateError, KubectlError } from '../../errors';
import { makePrinter, printFlags } from '../../printers/output';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../../resource/builder';
import { objectPath, resolveObjects } from '../../resource/visit';
import { canonical } from '../rollout/workload';
import { dryRunFlag, dryRunStrategy, dryRunSuffix } from '../mutation';
import { nestPatch, noPodTemplate, podSpecOf, podSpecPath } from './pod-spec';

type Resources = { limits?: Record<string, string>; requests?: Record<string, string> };
type Container = { name?: string; resources?: Resources };

const quantityRe = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

/** `cpu=200m,memory=512Mi` as a resource list, each quantity checked as kubectl checks it. */
export function parseResourceList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === '') return out;
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new KubectlError(`error: invalid argument syntax ${pair}`);
    const value = pair.slice(eq + 1);
    if (!quantityRe.test(value))
      throw new KubectlError(
        "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      );
    out[pair.slice(0, eq)] = value;
  }
  return out;
}

/** Go's filepath.Match for container names: `*`, `?` and literal characters. */
function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return re.test(name);
}

/** The containers whose resources change (with their whole new resources) and whether any matched. */
export function resourcesPatch(
  spec: { containers?: Container[]; initContainers?: Container[] },
  selector: string,
  limits: Record<string, string>,
  requests: Record<string, string>,
): { patch: Record<string, Container[]>; found: boolean } {
  const patch: Record<string, Container[]> = {};
  let found = false;
  for (const field of ['containers', 'initContainers'] as const) {
    for (const c of spec[field] ?? []) {
      if (!globMatch(selector, c.name ?? '')) continue;
      found = true;
      const before = canonical(c.resources ?? {});
      const next: Resources = { ...(c.resources ?? {}) };
      if (Object.keys(limits).length > 0) next.limits = { ...(next.limits ?? {}), ...limits };
      if (Object.keys(requests).length > 0) next.requests = { ...(next.requests ?? {}), ...requests };
      c.resources = next;
      if (canonical(next) !== before) (patch[field] ??= []).push({ name: c.name ?? '', resources: next });
    }
  }
  return { patch, found };
}

export const setResourcesCommand: Command = {
  name: 'resources',
  short: 'Update resource requests/limits on objects with pod templates',
  flags: [
    ...printFlags,
    ...filenameFlags,
    dryRunFlag,
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'containers', shorthand: 'c', type: 'string', default: '*' },
    { name: 'limits', type: 'string' },
    { name: 'requests', type: 'string' },
    { name: 'local', type: 'bool', noOptDefVal: 'true' },
    { name: 'record', type: 'bool', noOptDefVal: 'true' },
    { name: 'field-manager', type: 'string', default: 'kubectl-set' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const filenames = f.strings('filename');
    if (ctx.args.length === 0 && filenames.length === 0)
      throw new KubectlError(
        "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
      );
    if (f.string('limits') === '' && f.string('requests') === '')
      throw new KubectlError(
        'error: you must specify an update to requests or limits (in the form of --requests/--limits)',
      );
    const limits = parseResourceList(f.string('limits'));
    const requests = parseResourceList(f.string('requests'));
    const dryRun = dryRunStrategy(ctx);
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args);
    const errors: unknown[] = [];
    const local = f.bool('local');
    const objects = local
      ? built.infos.map((info) => ({ info, name: info.name ?? '', object: info.object as KubeObject }))
      : await resolveObjects(ctx, built.infos, errors, { labelSelector: f.string('selector') });
    const client = await ctx.f.client();
    const output = f.string('output');
    const printer = await makePrinter(output === '' ? 'name' : output, {
      io: ctx.io,
      operation: 'resource requirements updated',
      dryRunSuffix: dryRunSuffix(dryRun),
      template: f.string('template'),
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
      const { patch, found } = resourcesPatch(
        podSpecOf(copy, path),
        f.string('containers'),
        limits,
        requests,
      );
      if (!found) {
        errors.push(new KubectlError(`error: unable to find container named ${f.string('containers')}`));
        continue;
      }
      if (Object.keys(patch).length === 0) continue;
      if (local || dryRun === 'client') {
        ctx.out(printer.print(copy));
        continue;
      }
      try {
        const query: Record<string, string> = { fieldManager: f.string('field-manager') };
        if (dryRun === 'server') query['dryRun'] = 'All';
        const patched = (
          await client.send<KubeObject>('PATCH', withQuery(objectPath(info, name), query), {
            body: nestPatch(path, patch),
            contentType: 'application/strategic-merge-patch+json',
          })
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
