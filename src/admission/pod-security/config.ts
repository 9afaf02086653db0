/**
 * The plugin's configuration (`PodSecurityConfiguration` in
 * `pod-security.admission.config.<suffix>/v1`, `v1beta1` or `v1alpha1`, as
 * read from `--admission-control-config-file`): the default policy for
 * namespaces without labels and the exempt usernames, namespaces and
 * runtime classes. Without a configuration everything defaults to
 * `privileged:latest` and nothing is exempt, as on the real server.
 * An invalid one stops the server from starting, with the real wording.
 */

import { AdmissionConfigError } from '../config';
import type { NamingProfile } from '../../machinery/naming';
import { modes, parseLevel, parseVersion, type Policy } from './levels';

export interface PodSecurityConfig {
  defaults: Policy;
  exemptions: {
    usernames: ReadonlySet<string>;
    namespaces: ReadonlySet<string>;
    runtimeClasses: ReadonlySet<string>;
  };
}

const defaultPolicy = (): Policy => ({
  enforce: { level: 'privileged', version: { latest: true } },
  audit: { level: 'privileged', version: { latest: true } },
  warn: { level: 'privileged', version: { latest: true } },
});

export function defaultConfig(): PodSecurityConfig {
  return {
    defaults: defaultPolicy(),
    exemptions: { usernames: new Set(), namespaces: new Set(), runtimeClasses: new Set() },
  };
}

function stringList(value: unknown, path: string, errors: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    errors.push(`${path}: Invalid value: must be a list of strings`);
    return [];
  }
  const list = value as string[];
  const seen = new Set<string>();
  list.forEach((v, i) => {
    if (v === '') errors.push(`${path}[${i}]: Invalid value: "": must be non-empty`);
    else if (seen.has(v)) errors.push(`${path}[${i}]: Duplicate value: ${JSON.stringify(v)}`);
    seen.add(v);
  });
  return list;
}

export function parsePodSecurityConfig(raw: unknown, profile: NamingProfile): PodSecurityConfig {
  if (raw === undefined || raw === null) return defaultConfig();
  const group = `pod-security.admission.config.${profile.groupSuffix}`;
  const accepted = [`${group}/v1`, `${group}/v1beta1`, `${group}/v1alpha1`];
  const doc = raw as { apiVersion?: unknown; kind?: unknown; defaults?: unknown; exemptions?: unknown };
  if (
    typeof raw !== 'object' ||
    doc.kind !== 'PodSecurityConfiguration' ||
    !accepted.includes(String(doc.apiVersion))
  )
    throw new AdmissionConfigError(
      `failed to decode PodSecurity configuration: expected PodSecurityConfiguration in ${accepted.join(', ')}, got ${String(doc.kind)} ${String(doc.apiVersion)}`,
    );
  const errors: string[] = [];
  const config = defaultConfig();
  const defaults = (doc.defaults ?? {}) as Record<string, unknown>;
  for (const mode of modes) {
    const level = defaults[mode];
    if (level !== undefined && level !== '') {
      const parsed = parseLevel(String(level));
      if (parsed.error !== undefined)
        errors.push(`defaults.${mode}: Invalid value: ${JSON.stringify(level)}: ${parsed.error}`);
      else config.defaults[mode].level = parsed.level;
    }
    const version = defaults[`${mode}-version`];
    if (version !== undefined && version !== '') {
      const parsed = parseVersion(String(version));
      if (parsed.error !== undefined)
        errors.push(`defaults.${mode}-version: Invalid value: ${JSON.stringify(version)}: ${parsed.error}`);
      else config.defaults[mode].version = parsed.version;
    }
  }
  const ex = (doc.exemptions ?? {}) as Record<string, unknown>;
  config.exemptions = {
    usernames: new Set(stringList(ex.usernames, 'exemptions.usernames', errors)),
    namespaces: new Set(stringList(ex.namespaces, 'exemptions.namespaces', errors)),
    runtimeClasses: new Set(stringList(ex.runtimeClasses, 'exemptions.runtimeClasses', errors)),
  };
  if (errors.length > 0)
    throw new AdmissionConfigError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return config;
}
