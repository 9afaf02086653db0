/**
 * Helpers for the browser tests: open the app and wait until the service
 * worker controls the page, and send API requests from inside a page (so that
 * they go through the worker exactly as the UI's do). The callbacks run in
 * the browser; the e2e sources compile with Node types, hence the small
 * structural casts instead of DOM types.
 */

import { expect, type Page } from '@playwright/test';

export interface ApiAnswer {
  status: number;
  contentType: string | null;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

/** Loads `/` and waits until the page is controlled by the worker (the UI does the registering). */
export async function openSandbox(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await waitForController(page);
}

export async function waitForController(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null,
  );
}

/**
 * Waits until the worker has filled its offline shell cache, which it does
 * after taking control. The fill is one atomic `addAll`, so a shell cache that
 * holds `/index.html` holds every file.
 */
export async function waitForOfflineShell(page: Page): Promise<void> {
  // Polled with evaluate: waitForFunction would take the returned promise itself as a truthy answer.
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const storage = (globalThis as unknown as { caches: CacheStorageLike }).caches;
          for (const name of await storage.keys()) {
            if (!name.startsWith('orch-sandbox-shell-')) continue;
            if ((await (await storage.open(name)).match('/index.html')) !== undefined) return true;
          }
          return false;
        }),
      { timeout: 30_000 },
    )
    .toBe(true);
}

interface CacheStorageLike {
  keys(): Promise<string[]>;
  open(name: string): Promise<{ match(url: string): Promise<unknown> }>;
}

/** One API request from inside `page`. */
export function api(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<ApiAnswer> {
  return page.evaluate(
    async ({ method, path, body, contentType }) => {
      // Act as the sandbox's built-in admin, as the UI does (a request without a credential is anonymous).
      const listed = (await (await fetch('/sandbox/v1/identities')).json()) as {
        items: { name: string; token?: string }[];
      };
      const admin = listed.items.find((i) => i.name === 'admin');
      const headers: Record<string, string> = { accept: 'application/json' };
      if (admin?.token !== undefined) headers.authorization = `Bearer ${admin.token}`;
      const init: { method: string; headers: Record<string, string>; body?: string } = { method, headers };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        headers['content-type'] = contentType;
      }
      const response = await fetch(path, init);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, contentType: response.headers.get('content-type'), body: parsed };
    },
    { method, path, body, contentType },
  );
}

/** Like `api`, asserting the status and returning the JSON body as `T`. */
export async function apiOk<T>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  status?: number,
): Promise<T> {
  const answer = await api(page, method, path, body);
  if (status === undefined)
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  else expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body as T;
}

/** A name no other test run uses, valid as an object name. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export interface ObjectWithMeta {
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion: string; uid?: string };
}

export interface ListOf<T> {
  metadata: { resourceVersion: string };
  items: T[];
}

interface BrowserGlobals {
  navigator: { serviceWorker: { controller: unknown } };
}
