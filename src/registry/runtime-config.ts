/**
 * `--runtime-config`: which group/versions (and single resources) are served
 * beyond the defaults of v1.27. Entries are `<key>[=<true|false>]` separated
 * by commas; a key without value means true. Keys: `api/all`, `api/ga`,
 * `api/beta`, `api/alpha`, `<group>/<version>` (`v1` or `api/v1` for the
 * core group) and `<group>/<version>/<resource>`.
 */

import { badRequest } from '../machinery/errors';
import { goParseBool } from '../machinery/feature-gates';

export interface RuntimeConfig {
  levels: Partial<Record<'all' | 'ga' | 'beta' | 'alpha', boolean>>;
  /** `<group>/<version>` → enabled (core as `/v1`). */
  groupVersions: Map<string, boolean>;
  /** `<group>/<version>/<resource>` → enabled. */
  resources: Map<string, boolean>;
}

export function parseRuntimeConfig(text: string | undefined): RuntimeConfig {
  const config: RuntimeConfig = { levels: {}, groupVersions: new Map(), resources: new Map() };
  if (text === undefined || text.trim() === '') return config;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const key = eq < 0 ? entry : entry.slice(0, eq);
    const valueText = eq < 0 ? 'true' : entry.slice(eq + 1);
    // Go's strconv.ParseBool, and an empty value means true (the real getRuntimeConfigValue).
    const value = valueText === '' ? true : goParseBool(valueText);
    if (value === undefined)
      throw badRequest(
        `invalid value of ${key}: ${valueText}, err: strconv.ParseBool: parsing "${valueText}": invalid syntax`,
      );
    if (key === 'api/all' || key === 'api/ga' || key === 'api/beta' || key === 'api/alpha') {
      config.levels[key.slice(4) as 'all' | 'ga' | 'beta' | 'alpha'] = value;
      continue;
    }
    const parts = key.split('/');
    if (key === 'v1' || key === 'api/v1' || key === '/v1') config.groupVersions.set('/v1', value);
    else if (parts.length === 2) config.groupVersions.set(key, value);
    else if (parts.length === 3) config.resources.set(key, value);
    else throw badRequest(`invalid key ${key}`);
  }
  return config;
}

/** Whether a group/version is served, given its v1.27 default. */
export function isGroupVersionEnabled(
  config: RuntimeConfig,
  group: string,
  version: string,
  stability: 'stable' | 'beta' | 'alpha',
  enabledByDefault: boolean,
): boolean {
  const explicit = config.groupVersions.get(`${group}/${version}`);
  if (explicit !== undefined) return explicit;
  const level = stability === 'stable' ? config.levels.ga : config.levels[stability];
  if (level !== undefined) return level;
  if (config.levels.all !== undefined) return config.levels.all;
  return enabledByDefault;
}
