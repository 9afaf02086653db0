/**
 * The admission and audit settings a running sandbox can change (the
 * browser's workshop settings, `PUT /sandbox/v1/settings`): enabled and
 * disabled plugins, the admission configuration (an `AdmissionConfiguration`
 * document with embedded plugin configurations — the browser has no files)
 * and the audit policy. A change is validated as the real server validates
 * its flags (same messages, answered as 400) and rebuilds the chain; writes
 * already in flight finish with the chain they started with. The documents
 * are YAML: callers await `loadYamlForSettings` before checking them.
 */

import { validateAdmissionOptions, type AdmissionOptions } from '../admission/build';
import { AdmissionConfigError, parseAdmissionConfiguration } from '../admission/config';
import { AuditPolicyError, auditPolicyOfDocument, parseAuditPolicy, type AuditPolicy } from '../audit/policy';
import { yamlLibrary } from '../machinery/decode/yaml-library';
import { badRequest } from '../machinery/errors';
import { defaultOnPluginNames, orderedPluginNames } from '../admission/plugins/index';
import type { NamingProfile } from '../machinery/naming';

export interface AdmissionSettings {
  enablePlugins: string[];
  disablePlugins: string[];
  /** An AdmissionConfiguration (YAML or JSON); '' for none. */
  configuration: string;
}

/** Checks settings and turns them into the chain's options; throws a 400 with the real start-up message. */
export function admissionOptionsOf(profile: NamingProfile, s: AdmissionSettings): AdmissionOptions {
  const options: { -readonly [K in keyof AdmissionOptions]: AdmissionOptions[K] } = {
    enablePlugins: s.enablePlugins,
    disablePlugins: s.disablePlugins,
  };
  if (s.configuration.trim() !== '') {
    try {
      options.pluginConfigurations = parseAdmissionConfiguration(
        profile,
        s.configuration,
        (path) => {
          throw new Error(`open ${path}: the browser has no files; embed the plugin's configuration instead`);
        },
        'the admission configuration',
      );
    } catch (e) {
      if (e instanceof AdmissionConfigError) throw badRequest(`failed to read plugin config: ${e.message}`);
      throw e;
    }
  }
  const errors = validateAdmissionOptions(options);
  if (errors.length > 0) throw badRequest(errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`);
  return options;
}

/** A policy document, or undefined for '' (auditing off); throws a 400 with the real loader's message. */
export function auditPolicyOf(profile: NamingProfile, text: string): AuditPolicy | undefined {
  if (text.trim() === '') return undefined;
  try {
    // The browser's default text is checked from its data, so a start with the defaults needs no YAML library.
    return text === defaultBrowserAuditPolicy(profile)
      ? auditPolicyOfDocument(profile, defaultBrowserAuditPolicyDocument(profile))
      : parseAuditPolicy(profile, text);
  } catch (e) {
    if (e instanceof AuditPolicyError) throw badRequest(`loading audit policy: ${e.message}`);
    throw e;
  }
}

/** Loads the YAML library when the settings hold a document `admissionOptionsOf` or `auditPolicyOf` will parse. */
export async function loadYamlForSettings(
  profile: NamingProfile,
  s: { admission?: AdmissionSettings | undefined; auditPolicy?: string | undefined },
): Promise<void> {
  // Saved settings come from storage (an imported state): anything but text is refused later, not here.
  const text = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
  const policy = text(s.auditPolicy) && s.auditPolicy !== defaultBrowserAuditPolicy(profile);
  if (text(s.admission?.configuration) || policy) await yamlLibrary.load();
}

/**
 * The browser's default: every request at Metadata, so the live audit view shows something from the start —
 * except the sandbox's own API, which the UI polls (the audit view itself would fill the log).
 * `defaultBrowserAuditPolicy` is the same policy as text (what the workshop settings show).
 */
export function defaultBrowserAuditPolicyDocument(profile: NamingProfile): Record<string, unknown> {
  return {
    apiVersion: `audit.${profile.groupSuffix}/v1`,
    kind: 'Policy',
    rules: [{ level: 'None', nonResourceURLs: ['/sandbox/*'] }, { level: 'Metadata' }],
  };
}

/** The browser's default policy as the workshop settings show it: `defaultBrowserAuditPolicyDocument` in YAML. */
export function defaultBrowserAuditPolicy(profile: NamingProfile): string {
  return [
    `apiVersion: audit.${profile.groupSuffix}/v1`,
    'kind: Policy',
    'rules:',
    '  - level: None',
    '    nonResourceURLs: ["/sandbox/*"]',
    '  - level: Metadata',
    '',
  ].join('\n');
}

export interface AdmissionPluginState {
  name: string;
  /** Enabled unless disabled (the real default-on set). */
  defaultOn: boolean;
  enabled: boolean;
}

/** Every plugin in the order it runs, with whether it is on by default and now. */
export function admissionPluginStates(enabled: readonly string[]): AdmissionPluginState[] {
  const on = new Set(enabled);
  return orderedPluginNames.map((name) => ({
    name,
    defaultOn: defaultOnPluginNames.has(name),
    enabled: on.has(name),
  }));
}
