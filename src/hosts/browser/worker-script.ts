/**
 * The service worker's script URL and registration, as `register.ts` asks for them. index.html's inline
 * script registers the same worker on a first visit, before any module loads (so that this page's own
 * register() joins it), and so repeats the URL of each profile and the options: index-html.test.ts checks
 * they agree. A first visit's page also holds its own main script until the worker installs
 * (`workerScriptChannel`), as index.html's inline script and the build's `orch-held-entry` plugin arrange.
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

/**
 * The channel a first install's worker announces its `install` on (its script fetched, compiled and evaluated,
 * the server built), which a first visit's page waits for before it runs its own main script (index.html,
 * 0091): run earlier, the page's script and first render compete with that work for the CPU.
 */
export const workerScriptChannel = 'orch-sandbox.worker-script';
