/**
 * The browser host itself: the page is controlled by the app's service
 * worker, API paths are answered inside the browser, other paths fall
 * through, and a client going away (aborted fetch, closed tab) reaches the
 * `cancel()` of a streamed response body in the worker — the path watch
 * streams rely on to stop.
 */

import { expect, test, type Page } from '@playwright/test';
import { api, openSandbox, uniqueName, waitForController } from './support/sandbox';

test('the worker controls the page and answers /version', async ({ page }) => {
  await openSandbox(page);
  const version = await api(page, 'GET', '/version');
  // vite preview would answer an unknown path with index.html; JSON with a gitVersion can only come from the server core.
  expect(version.status).toBe(200);
  expect(version.body).toMatchObject({
    major: '1',
    gitVersion: expect.stringMatching(/^v1\.27\./) as unknown,
  });
  await expect(page.getByLabel('Server version')).toContainText('v1.27');
});

test('after a hard reload (which bypasses the worker) the page is claimed again', async ({
  page,
  context,
}) => {
  await openSandbox(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.reload', { ignoreCache: true });
  await waitForController(page);
  expect((await api(page, 'GET', '/version')).body).toMatchObject({ major: '1' });
  await expect(page.getByLabel('Server version')).toContainText('v1.27');
});

test('paths outside the API prefixes fall through to the shell and network', async ({ page }) => {
  await openSandbox(page);
  const favicon = await api(page, 'GET', '/favicon.svg');
  expect(favicon.status).toBe(200);
  expect(favicon.contentType).toContain('image/svg+xml');
  // `/apisx` shares a prefix string with `/apis` but is not under it: the static server's empty 404, not a Status.
  const lookalike = await api(page, 'GET', '/apisx');
  expect(lookalike.status).toBe(404);
  expect(lookalike.body).toBe('');
});

test('aborting a streamed fetch reaches the stream cancel() in the worker', async ({ page }) => {
  await openSandbox(page);
  const id = uniqueName('abort');
  await page.evaluate(async (id) => {
    const controller = new AbortController();
    const response = await fetch(`/__sandbox/probe/stream/${id}`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
  }, id);
  await expect.poll(() => probeState(page, id)).toBe('cancelled');
  // Recorded, not asserted: Chromium 156 does not abort the worker-side request.signal, so the core must stop a watch
  // from its stream's cancel(); this note shows when that changes.
  const record = (await api(page, 'GET', `/__sandbox/probe/status/${id}`)).body as { signalAborted: boolean };
  test.info().annotations.push({
    type: 'worker request.signal',
    description: record.signalAborted ? 'aborted' : 'not aborted',
  });
});

test('closing a tab cancels the streams it was reading', async ({ page, context }) => {
  await openSandbox(page);
  const other = await context.newPage();
  await openSandbox(other);
  const id = uniqueName('close');
  await other.evaluate(async (id) => {
    const response = await fetch(`/__sandbox/probe/stream/${id}`);
    await response.body!.getReader().read();
    // leave the stream open: the tab is closed next
  }, id);
  expect(await probeState(page, id)).toBe('streaming');
  await other.close();
  await expect.poll(() => probeState(page, id)).toBe('cancelled');
});

async function probeState(page: Page, id: string): Promise<unknown> {
  const answer = await api(page, 'GET', `/__sandbox/probe/status/${id}`);
  return (answer.body as { state?: unknown }).state;
}
