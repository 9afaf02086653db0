/**
 * The page's side of `/sandbox/v1/webhook-backends`: list, save (PUT,
 * create or replace) and delete the webhook backends the sandbox hosts.
 */

import type { ApiClient } from '../../client/index';
import type { WebhookBackend } from '../../admission/backends/types';

export type { WebhookBackend };

/** A backend's reserved URL; `.invalid` never resolves, so it shadows no real address (see docs/decisions/0017). */
export function backendUrl(name: string): string {
  return `https://${name}.webhooks.sandbox.invalid/`;
}

export const backendsPath = '/sandbox/v1/webhook-backends';

export async function listBackends(client: ApiClient): Promise<WebhookBackend[]> {
  return (await client.send<{ items: WebhookBackend[] }>('GET', backendsPath)).body.items;
}

export async function saveBackend(client: ApiClient, backend: WebhookBackend): Promise<WebhookBackend> {
  return (
    await client.send<WebhookBackend>('PUT', `${backendsPath}/${encodeURIComponent(backend.name)}`, {
      body: backend,
    })
  ).body;
}

export async function deleteBackend(client: ApiClient, name: string): Promise<void> {
  await client.send('DELETE', `${backendsPath}/${encodeURIComponent(name)}`);
}
