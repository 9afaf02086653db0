/**
 * The requests of the lab: each manager's apply (PATCH with
 * `application/apply-patch+yaml`, `fieldManager`, optionally `force`), and
 * the two edits of an applied configuration that resolve a conflict without
 * force: drop the conflicting fields, or set them to the server's values.
 * Requests are plain descriptions first, so the buttons can show exactly
 * what they will send.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client/index';
import { parseYaml, toYaml } from '../lib/yaml-text';
import { getAt, parseFieldPath, removeAt, setAt } from './field-path';

export interface ApplyRequest {
  method: 'PATCH';
  path: string;
  query: { fieldManager: string; force?: boolean };
  contentType: 'application/apply-patch+yaml';
  body: string;
}

export function applyRequest(
  objectPath: string,
  manager: string,
  yaml: string,
  force: boolean,
): ApplyRequest {
  return {
    method: 'PATCH',
    path: objectPath,
    query: force ? { fieldManager: manager, force: true } : { fieldManager: manager },
    contentType: 'application/apply-patch+yaml',
    body: yaml,
  };
}

/** The request as an HTTP message, for showing under the buttons. */
export function describeRequest(request: ApplyRequest): string {
  return `${request.method} ${withQuery(request.path, request.query)}\nContent-Type: ${request.contentType}\n\n${request.body.trimEnd()}`;
}

/** The configuration without the given fields: releasing them. */
export function dropFields(yaml: string, fields: string[]): string {
  const config = parseYaml(yaml) as Record<string, unknown>;
  for (const field of fields) removeAt(config, parseFieldPath(field));
  return toYaml(config);
}

/** The configuration with the given fields set to the live object's values: sharing them. */
export function adoptFields(yaml: string, fields: string[], live: KubeObject | undefined): string {
  const config = parseYaml(yaml) as Record<string, unknown>;
  for (const field of fields) {
    const path = parseFieldPath(field);
    const current = getAt(live, path);
    if (current.found) setAt(config, path, structuredClone(current.value));
    else removeAt(config, path);
  }
  return toYaml(config);
}
