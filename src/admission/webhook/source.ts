/**
 * Where the dispatchers find webhooks: the configurations the informer
 * holds (so a new configuration takes effect as soon as the cache sees
 * it), sorted by name as the real server sorts them, flattened into one
 * ordered list whose positions are the audit annotations' indexes.
 */

import type { Lister } from '../../machinery/lister';
import type { AdmissionPluginDeps } from '../types';
import type { WebhookConfiguration, WebhookEntry, WebhookKind } from './types';

export interface WebhookSource {
  /** Every webhook of every configuration, in dispatch order. */
  webhooks(): Promise<WebhookEntry[]>;
}

export function webhookSource(deps: AdmissionPluginDeps, kind: WebhookKind): WebhookSource {
  const group = `admissionregistration.${deps.profile.groupSuffix}`;
  const resource = kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const listerOf = (): Lister | undefined => {
    try {
      return deps.lister(group, resource);
    } catch {
      // The group is switched off (`--runtime-config`): no configuration can exist.
      return undefined;
    }
  };
  // Asked for as the plugin is built, before the server's informers start: its first list then runs beside
  // theirs, not alone on the path of the server's first write (a fresh store's start-up objects, 0102).
  let lister = listerOf();
  let synced = false;
  // The flattened list only changes when a configuration does: keyed by every name@resourceVersion.
  let cached: { key: string; entries: WebhookEntry[] } | undefined;
  return {
    async webhooks() {
      lister ??= listerOf();
      if (lister === undefined) return [];
      if (!synced) {
        await deps.listersSynced();
        synced = true;
      }
      const configurations = (lister.list() as WebhookConfiguration[])
        .slice()
        .sort((a, b) => compare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
      const key = configurations.map((c) => `${c.metadata?.name}@${c.metadata?.resourceVersion}`).join(',');
      if (cached?.key === key) return cached.entries;
      const entries: WebhookEntry[] = [];
      for (const c of configurations) {
        const configuration = c.metadata?.name ?? '';
        for (const spec of c.webhooks ?? [])
          entries.push({
            configuration,
            spec,
            index: entries.length,
            key: `${configuration}/${spec.name}`,
          });
      }
      cached = { key, entries };
      return entries;
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
