/**
 * patch (PATCH to a named object or its status/scale): JSON patch, merge
 * patch and (for built-in kinds) strategic merge patch applied to the
 * stored object (again on each optimistic retry), then the write pipeline
 * like an update; a resourceVersion the patch sets is a precondition.
 * Server-side apply merges a configuration by its field manager instead.
 */

import type { KubeObject } from '../../api/meta';
import { badRequest, invalid, StatusError } from '../../machinery/errors';
import { fieldError } from '../../machinery/field-errors';
import { goValue } from '../../machinery/go-format';
import { fromUnstructuredError } from '../../registry/validation/from-unstructured';
import { dropNullsSliced } from '../../machinery/json';
import { applyMergePatchInPlace } from '../../fieldmanager/merge-patch';
import { applyJsonPatch, JsonPatchError, jsonPatchLibrary } from '../../fieldmanager/json-patch';
import { strategicMergePatch } from '../../fieldmanager/strategic-merge-patch';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import type { Getter, ParentUpdater, RestStorage, Updater } from '../../registry/rest/capabilities';
import { applyScale } from '../../registry/generic/scale';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { readBodyText } from '../body';
import { negotiatePatch, type PatchType } from '../negotiate';
import { parseDryRun } from '../options';
import { refuseUnencodableObjectAnswer, respondObject } from '../encode';
import { respondValue } from '../respond';
import { checkNameAndNamespace } from './update';
import { storageApiVersion } from './written-object';
import { enforceFieldValidation, parseFieldValidation } from '../field-validation';
import { decodePatch, patchStrictError } from '../patch-decode';
import { fieldManagement } from '../../fieldmanager/library';
import { ownershipOptions } from '../field-manager-options';
import { decodeObjectBodyAsync, type DecodedBody } from '../body';
import { optionsObject, requestScope } from '../scope';
import { breathe } from '../../machinery/cooperative';

/** An apply body: YAML (or JSON) holding one object, read as the real server reads it. */
async function decodeApplyBody(text: string): Promise<{
  config: KubeObject;
  findings: DecodedBody['findings'];
}> {
  let decoded;
  try {
    decoded = await decodeObjectBodyAsync(text, 'yaml');
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
      // `current` is the write's own copy of the stored object: merged into in place.
      const result = applyMergePatchInPlace(current, patch);
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
        // The real server's generic 422 for a patch that does not apply: the operation's own error
        // (`testing value … failed`, a missing path) is not passed on, and the details stay empty.
        throw new StatusError(
          422,
          'Invalid',
          'the server rejected our request due to an error in our request',
          {},
        );
      }
    default:
      throw badRequest(`patch type ${type} is not supported`);
  }
}

type PatchStorage = RestStorage & Getter & Updater;

export async function handlePatch(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: PatchStorage,
  parentView: (RestStorage & ParentUpdater) | undefined,
): Promise<Response> {
  // Strategic merge patch needs the Go types' patch markers: built-in kinds only (custom resources get 415).
  const type = negotiatePatch(ctx.request.headers.get('content-type'), !req.rt.custom);
  refuseUnencodableObjectAnswer(ctx, req.rt);
  const dryRun = parseDryRun(ctx.query);
  const mode = parseFieldValidation(ctx.query);
  const text = await readBodyText(ctx.request);
  const ownership = ownershipOptions(server, ctx, 'PatchOptions', type === 'apply');
  if (type === 'apply') return handleApply(server, ctx, req, text, mode, ownership, storage, parentView);
  const scope = requestScope(ctx, req, storage, 'patch', {
    dryRun,
    options: optionsObject(server.profile, 'PatchOptions', ctx.query),
  });

  const { patch, findings } = decodePatch(text, type, mode);
  // The JSON patch library is loaded with the first such patch.
  if (type === 'json') await jsonPatchLibrary.load();
  ctx.warnings.keep();
  const sub = req.info.subresource;
  const gvk = storageApiVersion(req, storage);
  const defs = server.catalog.definitions;
  const definition = sub === '' ? req.rt.definition : req.rt.subresources.get(sub)?.definition;
  const schema: PatchSchemaRef = {
    defs,
    root: definition !== undefined ? { ref: definition } : sub === '' ? req.rt.schema : undefined,
  };
  const ownKind = storage.objectKind === undefined;

  const outcome = await storage.update(
    scope,
    req.info.name,
    async (current) => {
      const obj = applyPatch(
        type,
        { ...(current ?? {}), apiVersion: gvk.apiVersion, kind: gvk.kind },
        patch,
        schema,
      );
      if (!ownKind) return obj;
      if (obj.apiVersion !== gvk.apiVersion || obj.kind !== gvk.kind)
        throw badRequest('the patch must not change apiVersion or kind');
      // Each phase over a wide object lets other requests run before the next (machinery/cooperative.ts).
      await breathe();
      // Built-in kinds decode into types that drop nulls; custom resources keep them (nullable fields).
      if (!req.rt.custom) await dropNullsSliced(obj);
      // A strategic merge patch's result is converted from a generic map (not decoded from JSON): its errors
      // are the converter's, about the patch as Go prints it (`%+v`).
      const strategicError =
        type === 'strategic'
          ? (message: string) =>
              invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', goValue(patch), message)])
          : undefined;
      const converted =
        strategicError !== undefined && schema.root !== undefined
          ? fromUnstructuredError(defs, schema.root, obj)
          : undefined;
      if (converted !== undefined && strategicError !== undefined) throw strategicError(converted);
      checkNameAndNamespace(req, obj);
      await breathe();
      await enforceFieldValidation(defs, req.rt, obj, mode, ctx.warnings, findings, {
        strictError: patchStrictError(),
        ...(strategicError !== undefined ? { typeError: strategicError } : {}),
      });
      return obj;
    },
    { fieldManager: { manager: ownership.manager } },
  );
  if (!ownKind) return respondValue(ctx, 200, outcome.object);
  await breathe();
  return respondObject(server, ctx, 200, req.rt, outcome.object);
}

/**
 * Server-side apply (PATCH application/apply-patch+yaml): the configuration
 * merged into the stored object by its field manager, with conflicts; an
 * absent object is created (201). Through a view such as `/scale`, the
 * configuration is applied to the parent object (a Scale's replicas to the
 * workload's replicas field), so ownership is recorded there.
 */
async function handleApply(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  text: string,
  mode: ReturnType<typeof parseFieldValidation>,
  ownership: ReturnType<typeof ownershipOptions>,
  storage: PatchStorage,
  parentView: (RestStorage & ParentUpdater) | undefined,
): Promise<Response> {
  const dryRun = parseDryRun(ctx.query);
  const sub = req.info.subresource;
  const defs = server.catalog.definitions;
  const { config, findings } = await decodeApplyBody(text);
  const fm = await fieldManagement.load();
  const type = fm.objectTypeFor(req.rt, defs);
  const common = {
    manager: ownership.manager,
    force: ownership.force,
    lastAppliedAnnotation: server.profile.subPrefixed('kubectl', 'last-applied-configuration'),
  };
  const options = optionsObject(
    server.profile,
    'PatchOptions',
    ctx.query,
    ownership.force ? { force: true } : {},
  );
  const scope = requestScope(ctx, req, storage, 'patch', { dryRun, options });
  const fieldManager = { manager: ownership.manager, recorded: true };
  const applyTo = (live: KubeObject | undefined, cfg: KubeObject): KubeObject => {
    try {
      return fm.apply({
        ...common,
        type,
        live,
        config: cfg,
        apiVersion: req.rt.apiVersion,
        kind: req.rt.kind,
        subresource: sub,
        now: server.now(),
      });
    } catch (e) {
      throw fm.applyFailure(e);
    }
  };

  if (parentView !== undefined) {
    const view = storageApiVersion(req, storage);
    if (config.apiVersion !== view.apiVersion || config.kind !== view.kind) {
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
    ctx.warnings.keep();
    const replicas = (config.spec as { replicas?: unknown } | undefined)?.replicas;
    const object = await parentView.updateParent(
      scope,
      req.info.name,
      (current) => {
        // The Scale's replicas are the workload's replicas field (a custom resource's specReplicasPath): apply them there, as the scale subresource's manager.
        const parentConfig: KubeObject = {
          apiVersion: req.rt.apiVersion,
          kind: req.rt.kind,
          metadata: { name: req.info.name },
        };
        if (replicas !== undefined) applyScale(parentConfig, { spec: { replicas } }, req.rt);
        return applyTo(current, parentConfig);
      },
      { fieldManager },
    );
    return respondValue(ctx, 200, object);
  }

  // Fields the kind does not know are handled per fieldValidation before they could be owned.
  await enforceFieldValidation(defs, req.rt, config, mode, ctx.warnings, findings);
  ctx.warnings.keep();
  const outcome = await storage.update(
    scope,
    req.info.name,
    (current) => {
      const obj = applyTo(current, config);
      checkNameAndNamespace(req, obj);
      return obj;
    },
    // Apply creates an absent object (not through a subresource).
    { createWhenMissing: sub === '', fieldManager },
  );
  return respondObject(server, ctx, outcome.created ? 201 : 200, req.rt, outcome.object);
}
