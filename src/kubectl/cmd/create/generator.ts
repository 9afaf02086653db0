/**
 * The shape every `kubectl create <kind>` generator shares: exactly one
 * NAME (or kubectl's usage error), required flags checked first, the
 * object built in Go struct order (so `-o json` with `--dry-run=client`
 * prints what kubectl prints), then sent to the typed client's path —
 * which names the upstream `*.k8s.io` groups, as kubectl's typed clients
 * do — or printed for a client dry run.
 */

import type { KubeObject } from '../../../api/meta';
import { withQuery } from '../../../client';
import type { Command, CommandContext } from '../../command';
import { KubectlError, usageError } from '../../errors';
import type { FlagSpec } from '../../flags/pflag';
import { checkOutput, dryRunStrategy, printResult, writeFlags, writeQuery } from '../mutation';

export interface Generated {
  object: KubeObject;
  /** The collection path the typed client posts to (without the query). */
  path: string;
  /** kubectl wraps some generators' server errors: `failed to create rolebinding: …`. */
  wrapError?: string;
}

export interface GeneratorSpec {
  name: string;
  aliases?: string[];
  short: string;
  flags: FlagSpec[];
  required?: string[];
  /** Generators that take no NAME from the command line (token takes a service account). */
  nameRequired?: boolean;
  build(ctx: CommandContext, name: string, namespace: string, enforce: boolean): Promise<Generated>;
}

export function typedPath(group: string, version: string, resource: string, namespace?: string): string {
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return namespace !== undefined ? `${base}/namespaces/${namespace}/${resource}` : `${base}/${resource}`;
}

export function meta(
  name: string,
  namespace: string | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    ...(namespace !== undefined && namespace !== '' ? { namespace } : {}),
    creationTimestamp: null,
    ...extra,
  };
}

export function sortedMap<T>(entries: [string, T][]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = v;
  return out;
}

export function generator(spec: GeneratorSpec): Command {
  return {
    name: spec.name,
    ...(spec.aliases !== undefined ? { aliases: spec.aliases } : {}),
    short: spec.short,
    flags: [...writeFlags('kubectl-create'), ...spec.flags],
    async run(ctx) {
      const missing = (spec.required ?? []).filter((f) => !ctx.flags.changed.has(f));
      if (missing.length > 0)
        throw new KubectlError(`error: required flag(s) ${missing.map((m) => `"${m}"`).join(', ')} not set`);
      const dash = ctx.flags.argsLenAtDash;
      const names = dash >= 0 ? ctx.args.slice(0, dash) : ctx.args;
      if (names.length !== 1) throw usageError(ctx.path, `exactly one NAME is required, got ${names.length}`);
      const name = names[0] as string;
      const dryRun = dryRunStrategy(ctx);
      await checkOutput(ctx);
      const { namespace, explicit } = await ctx.f.namespace();
      const generated = await spec.build(ctx, name, namespace, explicit);
      if (dryRun === 'client') {
        await printResult(ctx, generated.object, 'created', dryRun, true);
        return 0;
      }
      const client = await ctx.f.client();
      let created: KubeObject;
      try {
        created = (
          await client.send<KubeObject>(
            'POST',
            withQuery(generated.path, writeQuery(ctx, dryRun, ctx.flags.string('field-manager'))),
            {
              body: generated.object,
            },
          )
        ).body;
      } catch (error) {
        if (generated.wrapError !== undefined)
          throw new KubectlError(`error: ${generated.wrapError}: ${(error as Error).message}`);
        throw error;
      }
      await printResult(ctx, created, 'created', dryRun);
      return 0;
    },
  };
}
