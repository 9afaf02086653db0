/**
 * The course engine's host in the browser (src/lessons/host.ts): clients
 * acting as a built-in identity by its token (the learner's ones through
 * the app's request log, so "Show me" appears there like any request; the
 * engine's own reads outside it), the request log as the checks' journal,
 * the Watch inspector's feed, progress kept by the in-browser sandbox, and
 * the header's identity chip for "Act as".
 */

import { useMemo } from 'react';
import { createClient, type ApiClient } from '../../client/index';
import type { LessonHost } from '../../lessons/host';
import { journalEntry, type JournalEntry, type RequestSource } from '../../lessons/journal';
import { sandboxProgress } from '../../lessons/progress';
import { namingProfile } from '../../machinery/naming';
import { useRequestLog } from '../app/RequestLogContext';
import { useIdentityStore } from '../identity/IdentityContext';
import { actingAsBuiltIn, type IdentityStore } from '../lib/identity';
import { inspectorFeed } from '../lib/inspector-feed';
import { preferences } from '../lib/preferences';
import { recordingFetch, type LoggedRequest, type RequestLog } from '../lib/request-log';
import { servedFetch } from '../lib/served';

export function useLessonHost(): LessonHost {
  const log = useRequestLog();
  const store = useIdentityStore();
  return useMemo(() => lessonHost(log, store), [log, store]);
}

function lessonHost(log: RequestLog, store: IdentityStore): LessonHost {
  const clientFor = async (identity: string, recorded: boolean): Promise<ApiClient> => {
    const token = identity === 'anonymous' ? undefined : await tokenOf(store, identity);
    const send = (request: Request): Promise<Response> => {
      if (token === undefined || request.headers.has('authorization')) return servedFetch(request);
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${token}`);
      return servedFetch(new Request(request, { headers }));
    };
    return createClient({ fetch: recorded ? recordingFetch(log, send) : send });
  };
  let observer: Promise<ApiClient> | undefined;
  const progressClient = () => (observer ??= clientFor('admin', false));
  return {
    profile: namingProfile(preferences.profile()),
    clientFor,
    requests: journalOf(log),
    inspector: inspectorFeed,
    progress: {
      all: async () => sandboxProgress(await progressClient()).all(),
      save: async (id, progress) => sandboxProgress(await progressClient()).save(id, progress),
    },
    actAs(identity) {
      if (identity === 'anonymous') {
        store.set({ name: 'anonymous', method: 'anonymous' });
        return;
      }
      void store.identities().then((all) => {
        const found = all.find((i) => i.name === identity);
        if (found !== undefined) store.set(actingAsBuiltIn(found));
      });
    },
  };
}

async function tokenOf(store: IdentityStore, identity: string): Promise<string> {
  const found = (await store.identities()).find((i) => i.name === identity);
  if (found?.token === undefined) throw new Error(`the sandbox has no identity "${identity}" with a token`);
  return found.token;
}

/** The app's request log as the checks' journal: each logged request as a journal entry, converted once. */
function journalOf(log: RequestLog): RequestSource {
  const converted = new WeakMap<LoggedRequest, JournalEntry>();
  let source: readonly LoggedRequest[] | undefined;
  let entries: JournalEntry[] = [];
  return {
    entries() {
      const snapshot = log.getSnapshot();
      if (snapshot !== source) {
        source = snapshot;
        entries = snapshot.map((logged) => {
          let entry = converted.get(logged);
          if (entry === undefined) {
            entry = {
              id: logged.id,
              ...journalEntry({
                at: logged.startedAt,
                method: logged.method,
                url: logged.path,
                requestHeaders: logged.requestHeaders,
                ...(logged.requestBody !== undefined ? { requestBody: logged.requestBody } : {}),
                ...(logged.status !== undefined ? { status: logged.status } : {}),
                ...(logged.responseHeaders !== undefined ? { responseHeaders: logged.responseHeaders } : {}),
                ...(logged.responseBody !== undefined ? { responseBody: logged.responseBody } : {}),
                streamed: logged.streamed,
              }),
            };
            converted.set(logged, entry);
          }
          return entry;
        });
      }
      return entries;
    },
    subscribe: log.subscribe,
  };
}
