/**
 * The webhook-backend part of the sandbox API, where a learner declares the
 * backends the sandbox answers webhook calls with (see
 * src/admission/backends):
 * - `GET /sandbox/v1/webhook-backends`: `{items: [...]}`, sorted by name;
 * - `GET /sandbox/v1/webhook-backends/<name>`: one, or 404;
 * - `PUT /sandbox/v1/webhook-backends/<name>`: create (201) or replace
 *   (200); a body that is not a valid backend is a 422 with one cause per
 *   problem;
 * - `DELETE /sandbox/v1/webhook-backends/<name>`: the deleted backend.
 * Bodies are JSON (or YAML). Authorized like the rest of the sandbox API.
 */

import { badRequest, invalid, methodNotAllowed, pathNotFound, StatusError } from '../machinery/errors';
import type { RequestContext } from '../http/context';
import { readBodyText } from '../http/body';
import { respondValue } from '../http/respond';
import { backendCalls, type BackendStore } from '../admission/backends/index';
import { yamlLibrary } from '../machinery/decode/yaml-library';

export const webhookBackendsPath = '/sandbox/v1/webhook-backends';

const groupKind = { group: 'sandbox', kind: 'WebhookBackend' };

/** True for the paths this module serves (trailing slashes already removed). */
export function isWebhookBackendApiPath(path: string): boolean {
  return path === webhookBackendsPath || path.startsWith(`${webhookBackendsPath}/`);
}

export async function handleWebhookBackendApi(store: BackendStore, ctx: RequestContext): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const method = ctx.request.method.toUpperCase();
  if (path === webhookBackendsPath) {
    if (method !== 'GET') throw methodNotAllowed();
    return respondValue(ctx, 200, { items: await store.list() });
  }
  const name = decodeURIComponent(path.slice(webhookBackendsPath.length + 1));
  if (name === '' || name.includes('/')) throw pathNotFound();
  switch (method) {
    case 'GET': {
      const found = await store.get(name);
      if (found === undefined) throw notFound(name);
      return respondValue(ctx, 200, found);
    }
    case 'PUT': {
      const body = await readBody(ctx);
      const { loadCelFor, validateBackend } = await backendCalls.load();
      await loadCelFor(body);
      const checked = validateBackend(body, name);
      if (checked.backend === undefined) throw invalid(groupKind, name, checked.errors);
      const created = await store.put(checked.backend);
      return respondValue(ctx, created ? 201 : 200, checked.backend);
    }
    case 'DELETE': {
      const deleted = await store.delete(name);
      if (deleted === undefined) throw notFound(name);
      return respondValue(ctx, 200, deleted);
    }
    default:
      throw methodNotAllowed();
  }
}

function notFound(name: string): StatusError {
  return new StatusError(404, 'NotFound', `webhook backend "${name}" not found`, {
    name,
    group: groupKind.group,
    kind: 'webhook-backends',
  });
}

async function readBody(ctx: RequestContext): Promise<unknown> {
  const text = await readBodyText(ctx.request);
  if (text.trim() === '') throw badRequest('the body must be a webhook backend (JSON or YAML)');
  const json = text.trimStart().startsWith('{');
  // Loaded outside the try: a library that cannot load is a 503, not a bad body.
  if (!json) await yamlLibrary.load();
  try {
    return json ? JSON.parse(text) : yamlLibrary.get().parse(text);
  } catch (e) {
    throw badRequest(`the body is not JSON or YAML: ${e instanceof Error ? e.message : String(e)}`);
  }
}
