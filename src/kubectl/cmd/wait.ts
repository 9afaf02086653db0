/**
 * `kubectl wait --for=condition=C[=value]|delete|jsonpath=…=value
 * TYPE/NAME…`: polls each object until the condition holds (printing
 * "condition met"), it is gone, or `--timeout` passes ("timed out waiting
 * for the condition on …"). Ctrl-C stops it.
 */

import type { KubeObject } from '../../api/meta';
import { ApiError } from '../../client';
import type { Command } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { parseGoDurationText } from '../flags/pflag';
import { JsonPath } from '../printers/jsonpath';
import { nameOf } from '../printers/output';
import { filenameFlags, infosFromArgs, infosFromFiles, type Info } from '../resource/builder';
import { objectPath, resolveObjects } from '../resource/visit';

type Check = (object: KubeObject | undefined) => boolean;

export const waitCommand: Command = {
  name: 'wait',
  short: 'Experimental: Wait for a specific condition on one or many resources',
  flags: [
    ...filenameFlags,
    { name: 'for', type: 'string' },
    { name: 'timeout', type: 'duration', default: '30s' },
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'field-selector', type: 'string' },
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'local', type: 'bool', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const forText = f.string('for');
    if (forText === '')
      throw new KubectlError(
        'error: --for must be set to one of: delete, condition=condition-name, jsonpath=jsonpath-expression=value',
      );
    let check: Check;
    let isDelete = false;
    if (forText.toLowerCase() === 'delete') {
      isDelete = true;
      check = (o) => o === undefined;
    } else if (forText.startsWith('condition=')) {
      const spec = forText.slice('condition='.length);
      const eq = spec.indexOf('=');
      const type = eq < 0 ? spec : spec.slice(0, eq);
      const want = eq < 0 ? 'true' : spec.slice(eq + 1);
      check = (o) => {
        const conditions =
          (o?.['status'] as { conditions?: { type: string; status?: string }[] } | undefined)?.conditions ??
          [];
        return conditions.some(
          (c) =>
            c.type.toLowerCase() === type.toLowerCase() &&
            (c.status ?? 'True').toLowerCase() === want.toLowerCase(),
        );
      };
    } else if (forText.startsWith('jsonpath=')) {
      const spec = forText.slice('jsonpath='.length);
      const eq = spec.lastIndexOf('=');
      if (eq < 0)
        throw new KubectlError(
          "error: jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3",
        );
      const jp = new JsonPath(
        spec.slice(0, eq).startsWith('{') ? spec.slice(0, eq) : `{${spec.slice(0, eq)}}`,
        { allowMissingKeys: true },
      );
      const want = spec.slice(eq + 1);
      check = (o) =>
        o !== undefined &&
        jp
          .results(o)
          .flat()
          .some((v) => String(v) === want);
    } else throw new KubectlError(`error: unrecognized condition: "${forText}"`);
    const filenames = f.strings('filename');
    if (ctx.args.length === 0 && filenames.length === 0)
      throw new KubectlError('error: resource(s) were provided, but no name was specified');
    const built =
      filenames.length > 0
        ? await infosFromFiles(ctx, filenames, f.bool('recursive'))
        : await infosFromArgs(ctx, ctx.args, { allNamespaces: f.bool('all-namespaces') });
    const errors: unknown[] = [];
    const named = built.infos.filter((i) => i.name !== undefined);
    const listed = await resolveObjects(
      ctx,
      built.infos.filter((i) => i.name === undefined),
      errors,
      { labelSelector: f.string('selector'), fieldSelector: f.string('field-selector') },
    );
    const targets: Info[] = [...named, ...listed.map((l) => l.info)];
    if (targets.length === 0) throw new KubectlError('error: no matching resources found');
    const timeout = parseGoDurationText(f.string('timeout'));
    const deadline = Date.now() + Math.max(timeout, 0);
    const client = await ctx.f.client();
    for (const info of targets) {
      let first = true;
      for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
        let object: KubeObject | undefined;
        try {
          object = (await client.send<KubeObject>('GET', objectPath(info, info.name))).body;
        } catch (error) {
          if (!(error instanceof ApiError && error.reason === 'NotFound')) {
            errors.push(error);
            break;
          }
          if (!isDelete) {
            if (first) {
              errors.push(error);
              break;
            }
          }
        }
        if (check(object)) {
          if (object !== undefined) ctx.out(`${nameOf(object)} condition met\n`);
          else if (!first)
            ctx.out(
              `${info.mapping.kind.toLowerCase()}${info.mapping.group ? `.${info.mapping.group}` : ''}/${info.name} condition met\n`,
            );
          break;
        }
        first = false;
        if (Date.now() >= deadline || ctx.io.signal?.aborted) {
          errors.push(
            new KubectlError(
              `error: timed out waiting for the condition on ${info.mapping.resource}/${info.name}`,
            ),
          );
          break;
        }
        await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(0, deadline - Date.now()))));
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};
