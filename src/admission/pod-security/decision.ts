/**
 * What one PodSecurity evaluation decides: warnings for the client, audit
 * annotations (unprefixed keys: `enforce-policy`, `audit-violations`,
 * `exempt`, `error`), and the error refusing the request, if any. The
 * plugin applies them in the real order — warnings and annotations are
 * recorded even for a refused request.
 */

import type { StatusError } from '../../machinery/errors';

export interface Decision {
  warnings: string[];
  annotations: Record<string, string>;
  error?: StatusError;
}

export function allow(annotations: Record<string, string> = {}, warnings: string[] = []): Decision {
  return { warnings, annotations };
}
