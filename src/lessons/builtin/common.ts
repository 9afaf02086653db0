/** Small builders the built-in lessons share, so each lesson file reads as its content. */

import type { CheckRead, LessonCheck, ObjectReference, ShowMeAction, ViewLink } from '../format';

/** A check over the requests sent since the lesson started. */
export function sent(description: string, expect: string): LessonCheck {
  return { description, read: { requests: {} }, expect };
}

/** A check over one object (`object`, null when it does not exist). */
export function objectCheck(description: string, object: ObjectReference, expect: string): LessonCheck {
  return { description, read: { object }, expect };
}

export function configMap(namespace: string, name: string): ObjectReference {
  return { apiVersion: 'v1', resource: 'configmaps', namespace, name };
}

export function check(description: string, read: CheckRead, expect: string): LessonCheck {
  return { description, read, expect };
}

/** One request of "Show me". */
export function request(
  method: string,
  path: string,
  extra: Omit<Extract<ShowMeAction, { request: unknown }>['request'], 'method' | 'path'> = {},
  options: Omit<Extract<ShowMeAction, { request: unknown }>, 'request'> = {},
): ShowMeAction {
  return { request: { method, path, ...extra }, ...options };
}

/** The Console with a request ready; `more` adds its `body`, `contentType` or `headers` (`Name: value` lines). */
export function consoleLink(
  method: string,
  path: string,
  label = `Console: ${method} ${path}`,
  more: { body?: string; contentType?: string; headers?: string } = {},
): ViewLink {
  return { view: 'console', label, params: { method, path, ...more } };
}

export function editorLink(text: string, label = 'Editor with the object'): ViewLink {
  return { view: 'editor', label, params: { text } };
}

/** The Terminal (kubectl in the app) with a command typed in; every such step offers another way too. */
export function terminalLink(command: string): ViewLink {
  return { view: 'terminal', label: `Terminal: ${command}`, params: { command } };
}

export const jsonMerge = 'application/merge-patch+json';
export const jsonPatch = 'application/json-patch+json';
export const strategicMerge = 'application/strategic-merge-patch+json';
export const applyYaml = 'application/apply-patch+yaml';
