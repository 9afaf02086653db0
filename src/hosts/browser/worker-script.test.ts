/// <reference types="vite/client" />
// index.html's inline script registers the service worker on a first visit, before any module loads: the
// URL of each profile and the options must be register.ts's, so that its own register() joins that one.
import { expect, it } from 'vitest';
import page from '../../../index.html?raw';
import { workerRegistration, workerScriptUrl } from './worker-script';

it("index.html's inline script registers the worker register.ts asks for, for either profile", () => {
  const call =
    /\.register\(kubernetes \? '([^']*)' : '([^']*)', \{ type: '([^']*)', scope: '([^']*)' \}\)/.exec(page);
  expect(call).not.toBeNull();
  const [, kubernetes, orch, type, scope] = call ?? [];
  expect(kubernetes).toBe(workerScriptUrl('kubernetes'));
  expect(orch).toBe(workerScriptUrl());
  expect({ type, scope }).toEqual(workerRegistration);
  // The profile a controlling worker serves is read back from its URL the same way.
  expect(page).toContain(".searchParams.get('profile') ===");
  expect(new URL(workerScriptUrl('kubernetes'), 'https://x').searchParams.get('profile')).toBe('kubernetes');
});
