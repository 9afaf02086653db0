/**
 * Which backend a webhook call is addressed to: a `service` reference
 * matching a backend's (namespace/name, and its port and path when the
 * backend names them), or a URL on the reserved domain,
 * `https://<backend>.webhooks.sandbox.invalid[:port]/<path>`. Anything
 * else belongs to the fallback transport.
 */

import type { WebhookClientConfig } from '../webhook-transport';
import { RESERVED_DOMAIN, type WebhookBackend } from './types';

export type Resolution =
  | { kind: 'backend'; backend: WebhookBackend }
  /** A reserved-domain URL naming no declared backend: like a host name that does not resolve. */
  | { kind: 'unknown'; host: string }
  | { kind: 'elsewhere' };

export function resolveBackend(
  clientConfig: WebhookClientConfig,
  backends: readonly WebhookBackend[],
): Resolution {
  const service = clientConfig.service;
  if (service !== undefined) {
    const port = service.port ?? 443;
    const path = service.path ?? '/';
    const found = backends.find((b) => {
      const s =
        b.service ?? (b.namespace !== undefined ? { name: b.name, namespace: b.namespace } : undefined);
      return (
        s !== undefined &&
        s.name === service.name &&
        s.namespace === service.namespace &&
        (s.port === undefined || s.port === port) &&
        (s.path === undefined || s.path === path)
      );
    });
    return found !== undefined ? { kind: 'backend', backend: found } : { kind: 'elsewhere' };
  }
  if (clientConfig.url === undefined) return { kind: 'elsewhere' };
  let host: string;
  try {
    host = new URL(clientConfig.url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return { kind: 'elsewhere' };
  }
  if (!host.endsWith(`.${RESERVED_DOMAIN}`)) return { kind: 'elsewhere' };
  const name = host.slice(0, -(RESERVED_DOMAIN.length + 1));
  const found = backends.find((b) => b.name === name);
  return found !== undefined ? { kind: 'backend', backend: found } : { kind: 'unknown', host };
}

/** The URL the real client would POST to, as its errors print it (with the `?timeout=` it appends). */
export function callUrl(clientConfig: WebhookClientConfig, timeoutMs: number): string {
  const timeout = `timeout=${timeoutMs % 1000 === 0 ? `${timeoutMs / 1000}s` : `${timeoutMs}ms`}`;
  if (clientConfig.url !== undefined)
    return `${clientConfig.url}${clientConfig.url.includes('?') ? '&' : '?'}${timeout}`;
  const s = clientConfig.service;
  if (s === undefined) return '<no address>';
  return `https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? '/'}?${timeout}`;
}
