/**
 * `kubectl apply -f`: client-side apply (the default) creates an object
 * that does not exist with the last-applied annotation, or patches one that
 * does with the three-way patch between the annotation, the file and the
 * server's object — "unchanged" when that patch is empty; `--server-side`
 * sends the object as an apply patch under `--field-manager` (default
 * `kubectl`), with kubectl's explanation around a conflict.
 */

import type { KubeObject } from '../../api/meta';
import { ApiError, resourcePath, withQuery, type PatchContentType } from '../../client';
import type { Command, CommandContext } from '../command';
import { AggregateError, KubectlError } from '../errors';
import { goJson } from '../printers/json';
import { filenameFlags, infosFromFiles, type Info } from '../resource/builder';
import { lastAppliedAnnotation, setLastApplied } from './apply/last-applied';
import { threeWayPatch } from './apply/three-way';
import { upgradePatch } from './apply/csa-upgrade';
import {
  checkOutput,
  dryRunStrategy,
  printResult,
  writeFlags,
  type DryRun,
  fieldValidation,
} from './mutation';
import { addSourceToError } from './source-error';

/** Groups kubectl's own scheme knows, whose kinds get strategic merge patches. */
const strategicGroups = new Set([
  '',
  'apps',
  'batch',
  'autoscaling',
  'policy',
  'extensions',
  'admissionregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'internal.apiserver.k8s.io',
]);

export function isStrategic(group: string): boolean {
  return strategicGroups.has(group);
}

export const conflictHelp = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

/** cli-runtime's Info.String(). */
export function infoString(info: Info): string {
  const m = info.mapping;
  return `Resource: "${m.group}/${m.version}, Resource=${m.resource}", GroupVersionKind: "${m.group}/${m.version}, Kind=${m.kind}"\nName: "${info.name ?? ''}", Namespace: "${info.namespace}"`;
}

export const applyCommand: Command = {
  name: 'apply',
  short: 'Apply a configuration to a resource by file name or stdin',
  flags: [
    ...writeFlags('kubectl-client-side-apply'),
    ...filenameFlags,
    { name: 'server-side', type: 'bool', noOptDefVal: 'true' },
    { name: 'force-conflicts', type: 'bool', noOptDefVal: 'true' },
    { name: 'overwrite', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'prune', type: 'bool', noOptDefVal: 'true' },
    { name: 'selector', shorthand: 'l', type: 'string' },
    { name: 'all', type: 'bool', noOptDefVal: 'true' },
    { name: 'force', type: 'bool', noOptDefVal: 'true' },
    { name: 'grace-period', type: 'int', default: '-1' },
    { name: 'timeout', type: 'duration', default: '0s' },
    { name: 'wait', type: 'bool', noOptDefVal: 'true' },
    { name: 'openapi-patch', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'cascade', type: 'string', default: 'background', noOptDefVal: 'background' },
  ],
  subcommands: [],
  async run(ctx) {
    const filenames = ctx.flags.strings('filename');
    if (filenames.length === 0)
      throw new KubectlError(
        `error: must specify one of -f and -k\nSee '${ctx.path} -h' for help and examples`,
      );
    const serverSide = ctx.flags.bool('server-side');
    if (ctx.flags.bool('force-conflicts') && !serverSide)
      throw new KubectlError('error: --force-conflicts only works with --server-side');
    const dryRun = dryRunStrategy(ctx);
    if (serverSide && dryRun === 'client')
      throw new KubectlError(
        "error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)",
      );
    fieldValidation(ctx);
    await checkOutput(ctx);
    const { infos } = await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'));
    if (infos.length === 0) throw new KubectlError('error: no objects passed to apply');
    const errors: unknown[] = [];
    for (const info of infos) {
      try {
        if (serverSide) await applyServerSide(ctx, info, dryRun);
        else await applyClientSide(ctx, info, dryRun);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors);
    return 0;
  },
};

function path(info: Info, name?: string): string {
  return resourcePath({
    group: info.mapping.group,
    version: info.mapping.version,
    resource: info.mapping.resource,
    ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
    ...(name !== undefined ? { name } : {}),
  });
}

async function applyServerSide(ctx: CommandContext, info: Info, dryRun: DryRun): Promise<void> {
  const client = await ctx.f.client();
  const object = { ...(info.object as KubeObject) };
  if (info.mapping.namespaced) object.metadata = { ...object.metadata, namespace: info.namespace };
  const manager = ctx.flags.changed.has('field-manager') ? ctx.flags.string('field-manager') : 'kubectl';
  const query: Record<string, string | boolean> = {};
  if (dryRun === 'server') query['dryRun'] = 'All';
  query['fieldManager'] = manager;
  query['force'] = ctx.flags.bool('force-conflicts');
  query['fieldValidation'] = fieldValidation(ctx);
  try {
    const send = () =>
      client.send<KubeObject>('PATCH', withQuery(path(info, info.name), query), {
        body: goJson(object),
        contentType: 'application/apply-patch+yaml',
      });
    const r = await send();
    if (dryRun === 'none') {
      const upgrade = upgradePatch(r.body, manager);
      if (upgrade !== undefined) {
        await client.send('PATCH', path(info, info.name), {
          body: upgrade,
          contentType: 'application/json-patch+json',
        });
        await send();
      }
    }
    await printResult(ctx, r.body, 'serverside-applied', dryRun);
  } catch (error) {
    if (error instanceof ApiError && error.reason === 'Conflict')
      throw new KubectlError(`error: ${error.message}\n${conflictHelp}`);
    throw addSourceToError('patching', info.source ?? '', error);
  }
}

async function applyClientSide(ctx: CommandContext, info: Info, dryRun: DryRun): Promise<void> {
  const client = await ctx.f.client();
  const object: KubeObject = JSON.parse(JSON.stringify(info.object)) as KubeObject;
  if (info.mapping.namespaced) object.metadata = { ...object.metadata, namespace: info.namespace };
  if (info.name === undefined)
    throw new KubectlError(
      `error: error when retrieving current configuration of:\n${infoString(info)}\nfrom server for: "${info.source}": resource name may not be empty`,
    );
  let current: KubeObject | undefined;
  try {
    current = (await client.send<KubeObject>('GET', path(info, info.name))).body;
  } catch (error) {
    if (!(error instanceof ApiError && error.reason === 'NotFound'))
      throw addSourceToError(
        `retrieving current configuration of:\n${infoString(info)}\nfrom server for:`,
        info.source ?? '',
        error,
      );
  }
  const manager = ctx.flags.string('field-manager');
  const query: Record<string, string> = {};
  if (dryRun === 'server') query['dryRun'] = 'All';
  query['fieldManager'] = manager;
  query['fieldValidation'] = fieldValidation(ctx);
  if (current === undefined) {
    setLastApplied(object);
    if (dryRun === 'client') return printResult(ctx, object, 'created', dryRun);
    try {
      const r = await client.send<KubeObject>('POST', withQuery(path(info), query), { body: object });
      return printResult(ctx, r.body, 'created', dryRun);
    } catch (error) {
      throw addSourceToError('creating', info.source ?? '', error);
    }
  }
  if (dryRun === 'client') return printResult(ctx, current, 'configured', dryRun);
  const annotations = current.metadata?.annotations ?? {};
  if (annotations[lastAppliedAnnotation] === undefined)
    ctx.err(
      `Warning: resource ${info.mapping.resource}/${info.name} is missing the ${lastAppliedAnnotation} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`,
    );
  let original: unknown;
  try {
    original =
      annotations[lastAppliedAnnotation] !== undefined
        ? JSON.parse(annotations[lastAppliedAnnotation])
        : undefined;
  } catch {
    original = undefined;
  }
  setLastApplied(object);
  const strategic = isStrategic(info.mapping.group);
  const patch = threeWayPatch(original, object as Record<string, unknown>, current, strategic);
  const patchText = goJson(patch);
  const printObject = ctx.flags.string('output') !== '';
  if (patchText === '{}' && !printObject) return printResult(ctx, current, 'unchanged', dryRun);
  const contentType: PatchContentType = strategic
    ? 'application/strategic-merge-patch+json'
    : 'application/merge-patch+json';
  try {
    const r = await client.send<KubeObject>('PATCH', withQuery(path(info, info.name), query), {
      body: patchText,
      contentType,
    });
    await printResult(ctx, r.body, patchText === '{}' ? 'unchanged' : 'configured', dryRun);
  } catch (error) {
    throw addSourceToError(
      `applying patch:\n${patchText}\nto:\n${infoString(info)}\nfor:`,
      info.source ?? '',
      error,
    );
  }
}
