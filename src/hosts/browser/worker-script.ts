/**
 * The service worker's script URL and registration, as `register.ts` asks for them. index.html's inline
 * script registers the same worker on a first visit, before any module loads (so that this page's own
 * register() joins it), and so repeats the URL of each profile and the options: index-html.test.ts checks
 * they agree.
 */

import type { ProfileName } from '../../machinery/naming';

/** The worker script of the default (orch) profile. */
export const defaultWorkerScript = '/sw.js';

/** Another profile is another worker script URL, hence another worker and store (`?profile=<name>`). */
export function workerScriptUrl(profile?: ProfileName, scriptUrl = defaultWorkerScript): string {
  return profile === undefined ? scriptUrl : `${scriptUrl}?profile=${encodeURIComponent(profile)}`;
}

/** A module worker serving the whole origin. */
export const workerRegistration = { type: 'module', scope: '/' } as const;
