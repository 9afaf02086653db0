/**
 * `--admission-control-config-file`: an `AdmissionConfiguration`
 * (`apiserver.config.<suffix>/v1`, or the deprecated `apiserver.<suffix>/v1alpha1`
 * form) whose `plugins[]` give each plugin its configuration, embedded as
 * `configuration` or in the file at `path` (relative paths are relative to
 * the configuration file). Hosts read files; the core gets a loader.
 * The YAML library is loaded on first use: the caller awaits
 * `yamlLibrary.load()` first, or brings its own parser.
 */

import { yamlLibrary, type YamlParse } from '../machinery/decode/yaml-library';
import type { NamingProfile } from '../machinery/naming';

/** A start-up error, printed as the real server prints it. */
export class AdmissionConfigError extends Error {}

/** Reads a file named by the configuration (a `path` entry), relative paths already resolved by the host. */
export type ConfigFileLoader = (path: string) => string;

/** The plugins' configurations, by plugin name (a parsed JSON/YAML document each). */
export type PluginConfigurations = ReadonlyMap<string, unknown>;

function parseDocument(text: string, source: string, parseYaml: YamlParse): unknown {
  try {
    return parseYaml(text);
  } catch (e) {
    throw new AdmissionConfigError(
      `couldn't parse admission configuration ${source}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

export function parseAdmissionConfiguration(
  profile: NamingProfile,
  text: string,
  load: ConfigFileLoader,
  source = 'file',
  parseYaml: YamlParse = yamlLibrary.get().parse,
): PluginConfigurations {
  const doc = parseDocument(text, source, parseYaml);
  const out = new Map<string, unknown>();
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new AdmissionConfigError(`unable to read admission configuration from ${source}: not an object`);
  const o = doc as { apiVersion?: unknown; kind?: unknown; plugins?: unknown };
  const accepted = [
    `apiserver.config.${profile.groupSuffix}/v1`,
    `apiserver.${profile.groupSuffix}/v1alpha1`,
  ];
  if (
    o.kind !== 'AdmissionConfiguration' ||
    typeof o.apiVersion !== 'string' ||
    !accepted.includes(o.apiVersion)
  )
    throw new AdmissionConfigError(
      `unable to read admission configuration from ${source}: expected AdmissionConfiguration in ${accepted.join(' or ')}, got ${String(o.kind)} ${String(o.apiVersion)}`,
    );
  const plugins = o.plugins ?? [];
  if (!Array.isArray(plugins))
    throw new AdmissionConfigError(
      `unable to read admission configuration from ${source}: plugins must be a list`,
    );
  for (const entry of plugins as unknown[]) {
    const e = (entry ?? {}) as { name?: unknown; path?: unknown; configuration?: unknown };
    if (typeof e.name !== 'string' || e.name === '')
      throw new AdmissionConfigError(
        `unable to read admission configuration from ${source}: a plugin entry has no name`,
      );
    if (e.configuration !== undefined && e.configuration !== null) {
      out.set(e.name, e.configuration);
    } else if (typeof e.path === 'string' && e.path !== '') {
      let contents: string;
      try {
        contents = load(e.path);
      } catch (err) {
        throw new AdmissionConfigError(
          `unable to read admission configuration for plugin ${e.name} from ${e.path}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      out.set(e.name, parseDocument(contents, e.path, parseYaml));
    }
  }
  return out;
}
