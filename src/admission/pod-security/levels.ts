/**
 * Pod Security levels and versions as the namespace labels name them
 * (`restricted`, `v1.25`, `latest`), the effective policy of a namespace
 * (its labels over the configured defaults), and the label errors the real
 * server reports. Unparseable enforce values fall back to `restricted`
 * (fail closed); unparseable audit and warn levels to `privileged` (fail open).
 */

import type { FieldError } from '../../machinery/field-errors';
import type { NamingProfile } from '../../machinery/naming';

export type Level = 'privileged' | 'baseline' | 'restricted';

const validLevels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A minor of v1, or `latest` (newer than every numbered version). */
export type Version = { latest: true } | { latest: false; minor: number };

export const latestVersion: Version = { latest: true };

export function v1(minor: number): Version {
  return { latest: false, minor };
}

export interface LevelVersion {
  level: Level;
  version: Version;
}

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export type Mode = keyof Policy;
export const modes: readonly Mode[] = ['enforce', 'audit', 'warn'];

export function versionString(v: Version): string {
  return v.latest ? 'latest' : `v1.${v.minor}`;
}

export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && versionString(a.version) === versionString(b.version);
}

/** True when a is older than b (`latest` is never older). */
export function olderThan(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

/** -1 when a is less strict than b, 0 when equal, 1 when stricter. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(validLevels.indexOf(a) - validLevels.indexOf(b));
}

export function parseLevel(value: string): { level: Level; error?: string } {
  if ((validLevels as readonly string[]).includes(value)) return { level: value as Level };
  return { level: 'restricted', error: `must be one of ${validLevels.join(', ')}` };
}

const versionPattern = /^v1\.(0|[1-9][0-9]*)$/;

export function parseVersion(value: string): { version: Version; error?: string } {
  if (value === 'latest') return { version: latestVersion };
  const m = versionPattern.exec(value);
  const minor = m === null ? NaN : Number(m[1]);
  if (!Number.isSafeInteger(minor)) return { version: latestVersion, error: 'must be "latest" or "v1.x"' };
  return { version: v1(minor) };
}

/** The six namespace labels under the profile's label domain. */
export interface PolicyLabels {
  level: Record<Mode, string>;
  version: Record<Mode, string>;
}

export function policyLabels(profile: NamingProfile): PolicyLabels {
  const l = (name: string) => profile.subPrefixed('pod-security', name);
  return {
    level: { enforce: l('enforce'), audit: l('audit'), warn: l('warn') },
    version: { enforce: l('enforce-version'), audit: l('audit-version'), warn: l('warn-version') },
  };
}

/**
 * The policy a namespace's labels select, over the defaults. A usable
 * policy is returned even with errors (one per bad label, in the real order).
 */
export function policyToEvaluate(
  labels: Readonly<Record<string, string>> | undefined,
  defaults: Policy,
  keys: PolicyLabels,
): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = {
    enforce: { ...defaults.enforce },
    audit: { ...defaults.audit },
    warn: { ...defaults.warn },
  };
  const errors: FieldError[] = [];
  if (labels === undefined) return { policy, errors };
  const bad = (label: string, value: string, detail: string) =>
    errors.push({ type: 'FieldValueInvalid', field: `metadata.labels[${label}]`, badValue: value, detail });
  for (const mode of modes) {
    const levelValue = labels[keys.level[mode]];
    if (levelValue !== undefined) {
      const { level, error } = parseLevel(levelValue);
      policy[mode].level = error !== undefined && mode !== 'enforce' ? 'privileged' : level;
      if (error !== undefined) bad(keys.level[mode], levelValue, error);
    }
    const versionValue = labels[keys.version[mode]];
    if (versionValue !== undefined) {
      const { version, error } = parseVersion(versionValue);
      policy[mode].version = version;
      if (error !== undefined) bad(keys.version[mode], versionValue, error);
    }
  }
  return { policy, errors };
}

export function fullyPrivileged(p: Policy): boolean {
  return modes.every((m) => p[m].level === 'privileged');
}

export const privilegedLatest: LevelVersion = { level: 'privileged', version: latestVersion };
