/**
 * Admission: `--enable-admission-plugins`, `--disable-admission-plugins`,
 * `--admission-control-config-file` (read and parsed here, with the files
 * it names resolved beside it) and the default toleration seconds, with the
 * real AdmissionOptions' validation.
 */

import { dirname, isAbsolute, join } from 'node:path';
// Flags are parsed synchronously: the Node host imports the YAML package itself (the core loads it lazily).
import { parse as parseYaml } from 'yaml';
import { namingProfile } from '../../../machinery/naming';
import {
  AdmissionConfigError,
  parseAdmissionConfiguration,
  validateAdmissionOptions,
  type AdmissionOptions,
} from '../../../server/admission';
import type { NodeHostOptions } from '../host';
import { FlagError, invalid, readFlagFile, type FlagDecl, type RawFlags, type ReadFile } from './flags';

export const admissionFlags = {
  'enable-admission-plugins': {
    kind: 'stringSlice',
    section: 'admission',
    usage:
      'Admission plugins that should be enabled in addition to default enabled ones. Comma-delimited list of admission plugins.',
  },
  'disable-admission-plugins': {
    kind: 'stringSlice',
    section: 'admission',
    usage: 'Admission plugins that should be disabled although they are in the default enabled plugins list.',
  },
  'admission-control-config-file': {
    kind: 'string',
    section: 'admission',
    usage: 'File with admission control configuration.',
  },
  'default-not-ready-toleration-seconds': {
    kind: 'string',
    type: 'int',
    section: 'global',
    usage:
      'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
    default: '300',
  },
  'default-unreachable-toleration-seconds': {
    kind: 'string',
    type: 'int',
    section: 'global',
    usage:
      'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
    default: '300',
  },
} as const satisfies Record<string, FlagDecl>;

type AdmissionFlag = keyof typeof admissionFlags;

/** Go's strconv.ParseInt for a toleration-seconds flag. */
function parseSeconds(name: AdmissionFlag, value: string): number {
  if (!/^-?\d+$/.test(value))
    throw invalid(name, value, `strconv.ParseInt: parsing "${value}": invalid syntax`);
  return Number(value);
}

/** The admission flags; returns the validation errors the real server reports. */
export function admissionOf(
  raw: RawFlags<AdmissionFlag>,
  read: ReadFile,
  options: NodeHostOptions,
): string[] {
  const admission: { -readonly [K in keyof AdmissionOptions]: AdmissionOptions[K] } = {};
  const enable = raw.lists['enable-admission-plugins'];
  const disable = raw.lists['disable-admission-plugins'];
  if (enable !== undefined) admission.enablePlugins = enable;
  if (disable !== undefined) admission.disablePlugins = disable;
  const file = raw.strings['admission-control-config-file'];
  if (file !== undefined && file !== '') {
    const profile = namingProfile(options.profile ?? 'orch');
    const text = readFlagFile(read, file, 'failed to read plugin config: ');
    admission.loadFile = (path) => read(isAbsolute(path) ? path : join(dirname(file), path));
    try {
      admission.pluginConfigurations = parseAdmissionConfiguration(
        profile,
        text,
        (path) => read(isAbsolute(path) ? path : join(dirname(file), path)),
        file,
        parseYaml,
      );
    } catch (e) {
      if (e instanceof AdmissionConfigError)
        throw new FlagError(`failed to read plugin config: ${e.message}`);
      throw e;
    }
  }
  if (Object.keys(admission).length > 0) options.admission = admission;
  const notReady = raw.strings['default-not-ready-toleration-seconds'];
  const unreachable = raw.strings['default-unreachable-toleration-seconds'];
  if (notReady !== undefined || unreachable !== undefined)
    options.admissionFlags = {
      ...(notReady !== undefined
        ? { defaultNotReadyTolerationSeconds: parseSeconds('default-not-ready-toleration-seconds', notReady) }
        : {}),
      ...(unreachable !== undefined
        ? {
            defaultUnreachableTolerationSeconds: parseSeconds(
              'default-unreachable-toleration-seconds',
              unreachable,
            ),
          }
        : {}),
    };
  return validateAdmissionOptions(admission);
}
