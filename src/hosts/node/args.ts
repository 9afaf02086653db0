/**
 * Command-line flags of `npm run serve`, parsed with node:util's parseArgs;
 * durations accept Go's forms (`5m`, `30s`, `1h30m`, `250ms`).
 */

import { parseArgs } from 'node:util';
import { isProfileName } from '../../machinery/naming';
import type { NodeHostOptions } from './host';

export function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    total += n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[m[2] as 'ms' | 's' | 'm' | 'h'];
    consumed += m[0].length;
  }
  if (consumed !== text.length || consumed === 0)
    throw new Error(`invalid duration "${text}" (examples: 30s, 5m, 1h30m)`);
  return total;
}

export function parseFeatureGates(text: string): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const entry of text.split(',').filter((e) => e.trim() !== '')) {
    const [name, value] = entry.split('=');
    if (name === undefined || (value !== 'true' && value !== 'false'))
      throw new Error(`invalid feature gate "${entry}" (expected Name=true|false)`);
    gates[name.trim()] = value === 'true';
  }
  return gates;
}

export function parseHostArgs(argv: string[]): NodeHostOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      profile: { type: 'string' },
      kubeconfig: { type: 'string' },
      storage: { type: 'string' },
      'runtime-config': { type: 'string' },
      'feature-gates': { type: 'string' },
      'compaction-interval': { type: 'string' },
    },
    strict: true,
  });
  const options: NodeHostOptions = {};
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`invalid --port "${values.port}"`);
    options.port = port;
  }
  if (values.host !== undefined) options.host = values.host;
  if (values.profile !== undefined) {
    if (!isProfileName(values.profile))
      throw new Error(`invalid --profile "${values.profile}" (orch or kubernetes)`);
    options.profile = values.profile;
  }
  if (values.kubeconfig !== undefined) options.kubeconfig = values.kubeconfig;
  if (values.storage !== undefined) {
    if (values.storage !== 'dexie' && values.storage !== 'memory')
      throw new Error(`invalid --storage "${values.storage}" (dexie or memory)`);
    options.storage = values.storage;
  }
  if (values['runtime-config'] !== undefined) options.runtimeConfig = values['runtime-config'];
  if (values['feature-gates'] !== undefined)
    options.featureGates = parseFeatureGates(values['feature-gates']);
  if (values['compaction-interval'] !== undefined)
    options.compactionIntervalMs = parseDuration(values['compaction-interval']);
  return options;
}
