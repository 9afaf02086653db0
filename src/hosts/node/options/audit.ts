/**
 * Auditing: `--audit-policy-file` (read and parsed here) and
 * `--audit-log-path` (`-` is standard output), with the real server's
 * warning when a log path comes without a policy.
 */

// Flags are parsed synchronously: the Node host imports the YAML package itself (the core loads it lazily).
import { parse as parseYaml } from 'yaml';
import { namingProfile } from '../../../machinery/naming';
import { AuditPolicyError, parseAuditPolicy } from '../../../server/audit';
import type { NodeHostOptions } from '../host';
import { FlagError, readFlagFile, type FlagDecl, type RawFlags, type ReadFile } from './flags';

export const auditFlags = {
  'audit-policy-file': {
    kind: 'string',
    section: 'auditing',
    usage: 'Path to the file that defines the audit policy configuration.',
  },
  'audit-log-path': {
    kind: 'string',
    section: 'auditing',
    usage:
      "If set, all requests coming to the apiserver will be logged to this file. '-' means standard out.",
  },
} as const satisfies Record<string, FlagDecl>;

type AuditFlag = keyof typeof auditFlags;

/** `--audit-policy-file` and `--audit-log-path` (`-` is standard output). */
export function auditOf(
  raw: RawFlags<AuditFlag>,
  read: ReadFile,
  options: NodeHostOptions,
  warn: (message: string) => void,
): void {
  const file = raw.strings['audit-policy-file'];
  const logPath = raw.strings['audit-log-path'];
  if (file === undefined || file === '') {
    if (logPath !== undefined && logPath !== '')
      warn('No audit policy file provided, no events will be recorded for log backend');
    return;
  }
  const text = readFlagFile(read, file, 'loading audit policy file: ');
  try {
    const policy = parseAuditPolicy(namingProfile(options.profile ?? 'orch'), text, parseYaml);
    options.audit = { policy, ...(logPath !== undefined && logPath !== '' ? { logPath } : {}) };
  } catch (e) {
    if (e instanceof AuditPolicyError)
      throw new FlagError(`loading audit policy file: ${e.message}: from file ${file}`);
    throw e;
  }
}
