/**
 * The worker's one API server, created on first use. The browser stops an
 * idle service worker after 30–45 s and starts it again for the next event;
 * all state is in IndexedDB, so a fresh module instance simply creates the
 * server again on its next request. A failed start is forgotten so that the
 * next request retries instead of failing forever.
 */

import { createApiServer, type ApiServer } from '../../../server/index';
import { isProfileName, type ProfileName } from '../../../machinery/naming';
import { openStorage } from './storage';

/** The IndexedDB store of a profile: one per profile, so switching profiles never mixes objects. */
export function storeName(profile: ProfileName): string {
  return `orch-sandbox-${profile}`;
}

/** The profile the worker was registered with (`/sw.js?profile=kubernetes`); default `orch`. */
export function profileFromScriptUrl(scriptUrl: string): ProfileName {
  const requested = new URL(scriptUrl).searchParams.get('profile');
  return requested !== null && isProfileName(requested) ? requested : 'orch';
}

let current: Promise<ApiServer> | undefined;

export function apiServer(profile: ProfileName): Promise<ApiServer> {
  if (current === undefined) {
    const starting = (async () => {
      // The sandbox API is the learner's own in the browser: reset, import and the identities list are open to the page.
      const server = createApiServer({
        storage: openStorage(storeName(profile)),
        profile,
        openSandboxApi: true,
      });
      await server.ready;
      return server;
    })();
    starting.catch(() => {
      if (current === starting) current = undefined;
    });
    current = starting;
  }
  return current;
}
