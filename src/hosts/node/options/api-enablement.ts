/**
 * API enablement: `--runtime-config`, whose values the core reads (see
 * registry/runtime-config.ts); here only the real server's refusal of a value
 * that is not a Go bool, which it reports once its logging is up.
 */

import { goParseBool } from '../../../machinery/feature-gates';
import type { NodeHostOptions } from '../host';
import { CommandFailed, type FlagDecl, type RawFlags } from './flags';

export const apiEnablementFlags = {
  'runtime-config': {
    kind: 'string',
    type: 'mapStringString',
    section: 'api enablement',
    usage:
      'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\nv1=true|false for the core API group\n<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\napi/all=true|false controls all API versions\napi/ga=true|false controls all API versions of the form v[0-9]+\napi/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\napi/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+\napi/legacy is deprecated, and will be removed in a future version',
  },
} as const satisfies Record<string, FlagDecl>;

type ApiEnablementFlag = keyof typeof apiEnablementFlags;

/** The real server's refusal of a `--runtime-config` value that is not a Go bool (an empty value means true). */
function runtimeConfigError(text: string): string | undefined {
  for (const entry of text.split(',')) {
    const eq = entry.indexOf('=');
    if (eq < 0) continue;
    const key = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1);
    if (value !== '' && goParseBool(value) === undefined)
      return `invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing "${value}": invalid syntax`;
  }
  return undefined;
}

/** `--runtime-config` into `options`. */
export function apiEnablementOf(raw: RawFlags<ApiEnablementFlag>, options: NodeHostOptions): void {
  const s = raw.strings;
  if (s['runtime-config'] !== undefined) {
    options.runtimeConfig = s['runtime-config'];
    const error = runtimeConfigError(s['runtime-config']);
    if (error !== undefined) throw new CommandFailed(error);
  }
}
