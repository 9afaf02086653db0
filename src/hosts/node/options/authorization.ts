/**
 * Authorization: `--authorization-mode`, the modes the core implements
 * (AlwaysAllow, AlwaysDeny, Node, RBAC), with the real server's messages
 * for unknown, unsupported and repeated modes.
 */

import type { AuthorizationMode, NodeHostOptions } from '../host';
import { type FlagDecl, type RawFlags } from './flags';

export const authorizationFlags = {
  'authorization-mode': {
    kind: 'stringSlice',
    section: 'authorization',
    usage:
      'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,Node,RBAC (ABAC and Webhook are refused).',
    default: '[Node,RBAC]',
  },
} as const satisfies Record<string, FlagDecl>;

type AuthorizationFlag = keyof typeof authorizationFlags;

/** The modes the core implements; the real server also knows ABAC and Webhook. */
const supportedModes: readonly AuthorizationMode[] = ['AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC'];

function isSupportedMode(mode: string): mode is AuthorizationMode {
  return (supportedModes as readonly string[]).includes(mode);
}
const realModes: readonly string[] = [...supportedModes, 'ABAC', 'Webhook'];

function authorizationErrors(modes: string[]): string[] {
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of modes) {
    if (!realModes.includes(mode)) errors.push(`authorization-mode "${mode}" is not a valid mode`);
    else if (!isSupportedMode(mode))
      errors.push(
        `authorization-mode "${mode}" is not supported by this server (use ${supportedModes.join(', ')})`,
      );
  }
  if (new Set(modes).size !== modes.length)
    errors.push(
      `authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`,
    );
  return errors;
}

/** `--authorization-mode` into `options`; returns the validation errors. */
export function authorizationOf(raw: RawFlags<AuthorizationFlag>, options: NodeHostOptions): string[] {
  const modes = raw.lists['authorization-mode'];
  const errors: string[] = modes !== undefined ? authorizationErrors(modes) : [];
  // Reached only when every mode is supported (otherwise an error is thrown below).
  if (modes !== undefined) options.authorizationModes = modes.filter(isSupportedMode);
  return errors;
}
