/**
 * patch (PATCH to a named object or its status/scale): JSON patch, merge
 * patch and (for built-in kinds) strategic merge patch applied to the
 * stored object (again on each optimistic retry), then the write pipeline
 * like an update; a resourceVersion the patch sets is a precondition.
 * Server-side apply merges a configuration by its field manager instead.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest, StatusError } from '../../machinery/errors';
import { dropNulls } from '../../machinery/json';
import { applyMergePatch } from '../../fieldmanager/merge-patch';
import { applyJsonPatch, JsonPatchError } from '../../fieldmanager/json-patch';
import { strategicMergePatch } from '../../fieldmanager/strategic-merge-patch';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { readBodyText } from '../body';
import { negotiatePatch, type PatchType } from '../negotiate';
import { parseDryRun } from '../options';
import { respondObject } from '../encode';
import { applyScale, scaleOf } from '../subresources/scale';
import { respondValue } from '../respond';
import { checkNameAndNamespace } from './update';
import { enforceFieldValidation, parseFieldValidation } from '../field-validation';
import { decodePatch, patchStrictError } from '../patch-decode';
import { apply as applyConfiguration, objectTypeFor } from '../../fieldmanager/index';
import { applyFailure, ownershipOptions } from '../field-manager-options';
import { decodeObjectBody } from '../body';
import { writeFor } from './write-request';

/** An apply body: YAML (or JSON) holding one object, read as the real server reads it. */
function decodeApplyBody(text: string): {
  config: KubeObject;
  findings: ReturnType<typeof decodeObjectBody>['findings'];
} {
  let decoded;
  try {
    decoded = decodeObjectBody(text, 'yaml');
  } catch (e) {
    if (e instanceof StatusError && e.code === 400) throw badRequest(`error decoding YAML: ${e.message}`);
    throw e;
  }
  const value = decoded.value ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value)
      ? 'array'
      : typeof value === 'string'
        ? 'string'
        : typeof value === 'boolean'
          ? 'bool'
          : 'number';
    throw badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
    );
  }
  return { config: value as KubeObject, findings: decoded.findings };
}

/** The schema a strategic merge patch follows: the definitions and the target kind's top definition. */
interface PatchSchemaRef {
  defs: DefinitionSet;
  root: SchemaNode | undefined;
}

function applyPatch(
  type: PatchType,
  current: KubeObject,
  patch: unknown,
  schema?: PatchSchemaRef,
): KubeObject {
  switch (type) {
    case 'strategic':
      if (schema?.root === undefined) throw badRequest(`patch type ${type} is not supported`);
      return strategicMergePatch(schema.defs, schema.root, current, patch) as KubeObject;
    case 'merge': {
      const result = applyMergePatch(current, patch);
      if (typeof result !== 'object' || result === null || Array.isArray(result))
        throw badRequest('merge patch must be a JSON object');
      return result as KubeObject;
    }
    case 'json':
      try {
        const result = applyJsonPatch(current, patch);
        if (typeof result !== 'object' || result === null || Array.isArray(result))
          throw badRequest('the patched document is not an object');
        return result as KubeObject;
      } catch (e) {
        if (!(e instanceof JsonPatchError)) throw e;
        if (e.malformed) throw badRequest(e.message);
        throw new StatusError(
          422,
          'Invalid',
          'the server rejected our request due to an error in our request',
          { causes: [{ reason: 'UnexpectedServerResponse', message: e.message }] },
        );
      }
    default:
      throw badRequest(`patch type ${type} is not supported`);
  }
}

export async function handlePatch(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
): Promise<Response> {
  // Strategic merge patch needs the Go types' patch markers: built-in kinds only (custom resources get 415).
  const type = negotiatePatch(ctx.request.headers.get('content-type'), !req.rt.custom);
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const text = await readBodyText(ctx.request);
  const ownership = ownershipOptions(server, ctx, 'PatchOptions', type === 'apply');
  const { patch, findings } =
    type === 'apply' ? { patch: undefined, findings: {} } : decodePatch(text, type, mode);
  const sub = req.info.subresource;
  const gvk = { apiVersion: req.rt.apiVersion, kind: req.rt.kind };
  const defs = server.catalog.definitions;
  const schema: PatchSchemaRef = {
    defs,
    root: req.rt.definition !== undefined ? { ref: req.rt.definition } : req.rt.schema,
  };

  const patched = (current: KubeObject): KubeObject => {
    const obj = applyPatch(type, current, patch, schema);
    if (obj.apiVersion !== gvk.apiVersion || obj.kind !== gvk.kind)
      throw badRequest('the patch must not change apiVersion or kind');
    // Built-in kinds decode into types that drop nulls; custom resources keep them (nullable fields).
    if (!req.rt.custom) dropNulls(obj);
    checkNameAndNamespace(req, obj);
    const strictError = patchStrictError();
    enforceFieldValidation(defs, req.rt, obj, mode, ctx.warnings, findings, { strictError });
    return obj;
  };

  if (type === 'apply') return handleApply(server, ctx, req, text, mode, ownership);

  if (sub === 'scale') {
    const outcome = await server.runWrite({
      ...writeFor(ctx, req, 'patch', dryRun, { subresource: '' }),
      desired: (current) => {
        const obj = current ?? {};
        const scaleDefinition = req.rt.subresources.get('scale')?.definition;
        const scale = applyPatch(type, scaleOf(server, req.rt, obj), patch, {
          defs,
          root: scaleDefinition !== undefined ? { ref: scaleDefinition } : undefined,
        });
        return applyScale(obj, scale, req.rt);
      },
      fieldManager: { manager: ownership.manager, subresource: 'scale' },
    });
    return respondValue(ctx, 200, scaleOf(server, req.rt, outcome.object));
  }

  const warningsBefore = ctx.warnings.length;
  const outcome = await server.runWrite({
    ...writeFor(ctx, req, 'patch', dryRun, { subresource: sub }),
    desired: (current) => {
      ctx.warnings.length = warningsBefore; // a retried attempt reports its own findings only
      return patched({ ...(current ?? {}), apiVersion: gvk.apiVersion, kind: gvk.kind });
    },
    fieldManager: { manager: ownership.manager, subresource: sub },
  });
  return respondObject(server, ctx, 200, req.rt, outcome.object);
}

/**
 * Server-side apply (PATCH application/apply-patch+yaml): the configuration
 * merged into the stored object by its field manager, with conflicts; an
 * absent object is created (201). Through `/scale`, a Scale's replicas are
 * applied to the workload's `spec.replicas`.
 */
async function handleApply(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  text: string,
  mode: ReturnType<typeof parseFieldValidation>,
  ownership: ReturnType<typeof ownershipOptions>,
): Promise<Response> {
  const dryRun = parseDryRun(ctx.query);
  const sub = req.info.subresource;
  const defs = server.catalog.definitions;
  const { config, findings } = decodeApplyBody(text);
  const type = objectTypeFor(req.rt, defs);
  const common = {
    manager: ownership.manager,
    force: ownership.force,
    lastAppliedAnnotation: server.profile.subPrefixed('kubectl', 'last-applied-configuration'),
  };

  if (sub === 'scale') {
    const scaleRt = req.rt.subresources.get('scale');
    const scaleApiVersion = `${scaleRt?.group ?? 'autoscaling'}/${scaleRt?.version ?? 'v1'}`;
    if (config.apiVersion !== scaleApiVersion || config.kind !== 'Scale') {
      const [g, v] =
        typeof config.apiVersion === 'string' && config.apiVersion.includes('/')
          ? config.apiVersion.split('/')
          : ['', String(config.apiVersion ?? '')];
      throw badRequest(
        `invalid object type: ${g ?? ''}/${v ?? ''}, Kind=${typeof config.kind === 'string' ? config.kind : ''}`,
      );
    }
    if (config.metadata?.managedFields !== undefined && config.metadata.managedFields !== null)
      throw badRequest('metadata.managedFields must be nil');
    const replicas = (config.spec as { replicas?: unknown } | undefined)?.replicas;
    const outcome = await server.runWrite({
      ...writeFor(ctx, req, 'patch', dryRun, { subresource: '' }),
      desired: (current) => {
        // The Scale's replicas are the workload's replicas field (a custom resource's specReplicasPath): apply them there, as the scale subresource's manager.
        const parentConfig: KubeObject = {
          apiVersion: req.rt.apiVersion,
          kind: req.rt.kind,
          metadata: { name: req.info.name },
        };
        if (replicas !== undefined) applyScale(parentConfig, { spec: { replicas } }, req.rt);
        try {
          return applyConfiguration({
            ...common,
            type,
            live: current,
            config: parentConfig,
            apiVersion: req.rt.apiVersion,
            kind: req.rt.kind,
            subresource: 'scale',
            now: server.now(),
          });
        } catch (e) {
          throw applyFailure(e);
        }
      },
      fieldManager: { manager: ownership.manager, subresource: 'scale', recorded: true },
    });
    return respondValue(ctx, 200, scaleOf(server, req.rt, outcome.object));
  }

  // Fields the kind does not know are handled per fieldValidation before they could be owned.
  enforceFieldValidation(defs, req.rt, config, mode, ctx.warnings, findings);
  const outcome = await server.runWrite({
    ...writeFor(ctx, req, 'patch', dryRun, { subresource: sub }),
    desired: (current) => {
      let obj: KubeObject;
      try {
        obj = applyConfiguration({
          ...common,
          type,
          live: current,
          config,
          apiVersion: req.rt.apiVersion,
          kind: req.rt.kind,
          subresource: sub,
          now: server.now(),
        });
      } catch (e) {
        throw applyFailure(e);
      }
      checkNameAndNamespace(req, obj);
      return obj;
    },
    // Apply creates an absent object (not through /status).
    createWhenMissing: sub === '',
    fieldManager: { manager: ownership.manager, subresource: sub, recorded: true },
  });
  return respondObject(server, ctx, outcome.created ? 201 : 200, req.rt, outcome.object);
}
