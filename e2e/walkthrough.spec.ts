/**
 * The README's "A first session, without reading anything else", walked
 * exactly as written with UI actions only (two tabs: "Watch it" opens the
 * second), then steps 4–5 twice more: two updates in a row from the
 * editor, a second and third apply conflict, and an editor conflict made on
 * purpose from the second tab, resolved by re-applying the change onto the
 * stored object. It asserts what a workshop's first ten minutes tripped
 * over: no 409 the learner did not cause, no `kind`/`apiVersion` lines in a
 * MODIFIED diff, the apply lab's 409 inside the 1280×720 viewport after
 * Step 2. It counts the UI actions and the wall time (printed and attached
 * to the report) and saves the screenshots the README uses.
 */

import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { api, uniqueName } from './support/sandbox';
import { openView, rowOf, shot, waitUsable } from './support/ui';
import { awaitedLater } from '../test/support/awaited-later';

/** Every user action goes through here, so the count is the number of clicks (and keystroke runs) a learner makes. */
class Actions {
  clicks = 0;
  typing = 0;
  async click(target: Locator): Promise<void> {
    this.clicks++;
    await target.click();
  }
  async select(target: Locator, value: string): Promise<void> {
    this.clicks++;
    await target.selectOption(value);
  }
  async type(page: Page, text: string): Promise<void> {
    this.typing++;
    await page.keyboard.type(text);
  }
}

interface Write {
  method: string;
  url: string;
  status: number;
}

/** Every API write the page answered (served by the worker), to find 409s. */
function recordWrites(page: Page, into: Write[]): void {
  page.on('response', (response) => {
    const method = response.request().method();
    if (method === 'GET') return;
    into.push({ method, url: response.url(), status: response.status() });
  });
}

test('the README first session, then steps 4–5 twice more', async ({ context }, testInfo) => {
  test.setTimeout(120_000);
  const act = new Actions();
  const writes: Write[] = [];
  const started = Date.now();
  const first = await context.newPage();
  recordWrites(first, writes);
  await openView(first, 'explorer');
  await waitUsable(first);
  const me = uniqueName('ada');

  // 1. A namespace of my own, from the Namespace template.
  await act.click(first.getByRole('button', { name: 'Namespace', exact: true }));
  const createText = first.getByLabel('Object (YAML or JSON)');
  await expect(createText).toHaveValue(/name: example/);
  await act.click(createText.getByText('example'));
  await renameInTextarea(first, act, createText, 'example', me);
  await act.click(first.getByRole('button', { name: 'Create', exact: true }));
  await expect(rowOf(first, me)).toBeVisible();

  // 2. A ConfigMap in it: the template follows the namespace picker.
  await act.click(first.getByRole('button', { name: 'ConfigMap', exact: true }));
  await act.select(first.getByLabel('Namespace', { exact: true }), me);
  await expect(createText).toHaveValue(new RegExp(`namespace: ${me}`));
  await act.click(first.getByRole('button', { name: 'Create', exact: true }));
  await expect(rowOf(first, 'example')).toBeVisible();

  // 3. Open it, and "Watch it" in a second tab.
  await act.click(rowOf(first, 'example').getByRole('button', { name: 'example', exact: true }));
  const watchLink = first.getByRole('link', { name: /^Watch it/ });
  const opening = awaitedLater(context.waitForEvent('page'));
  await act.click(watchLink);
  const second = await opening;
  recordWrites(second, writes);
  const events = second.getByRole('table', { name: 'Watch events' });
  await expect(events.getByText(/^listed 1 object/)).toBeVisible();
  await shot(first, testInfo, 'walkthrough-3-object');

  // 4. Edit in the editor, preview, confirm; the second tab shows the MODIFIED and its diff.
  await first.bringToFront();
  await act.click(first.getByRole('link', { name: 'Edit in editor' }));
  await changeGreeting(first, act, ', world');
  await updateAndConfirm(first, act, me, testInfo, 'walkthrough-4-editor-diff');
  await expectModified(second, act, 1, 'hello, world', testInfo, 'walkthrough-4-watch-diff');

  // 5. The apply lab's conflict scenario, Step 1, Step 2, one way out.
  await first.bringToFront();
  await act.click(first.getByRole('link', { name: 'Apply lab', exact: true }));
  await conflictRound(first, act, 'Force', 'bob', testInfo, 'walkthrough-5-lab-409');

  const readmeFlow = { ms: Date.now() - started, clicks: act.clicks, typing: act.typing };

  // 4 again: back to the explorer, edit, and update twice in a row without reloading.
  await act.click(first.getByRole('link', { name: 'Explorer', exact: true }));
  await act.click(first.getByRole('link', { name: 'Edit in editor' }));
  await expect(first.locator('.cm-content')).toContainText('greeting: hello, world');
  await changeGreeting(first, act, '!');
  await updateAndConfirm(first, act, me);
  await expectModified(second, act, 2, 'hello, world!');
  await first.bringToFront();
  await changeGreeting(first, act, '!');
  await updateAndConfirm(first, act, me);
  await expectModified(second, act, 3, 'hello, world!!');

  // 5 again: a second conflict, another way out.
  await first.bringToFront();
  await act.click(first.getByRole('link', { name: 'Apply lab', exact: true }));
  await conflictRound(first, act, 'Drop the fields', 'alice', testInfo);

  // 4 a third time, with a conflict on purpose: the second tab updates the object while my edit is open.
  await act.click(first.getByRole('link', { name: 'Explorer', exact: true }));
  await act.click(first.getByRole('link', { name: 'Edit in editor' }));
  await expect(first.locator('.cm-content')).toContainText('greeting: hello, world!!');
  await changeGreeting(first, act, ' (mine)');
  await second.bringToFront();
  await act.click(second.getByRole('link', { name: 'Explorer', exact: true }));
  await act.click(second.getByRole('button', { name: 'ConfigMap', exact: true }));
  await act.select(second.getByRole('combobox', { name: 'Namespace', exact: true }), me);
  await act.click(rowOf(second, 'example').getByRole('button', { name: 'example', exact: true }));
  await act.click(second.getByRole('link', { name: 'Edit in editor' }));
  await expect(second.locator('.cm-content')).toContainText('greeting: hello, world!!');
  await addLine(second, act, 'greeting: hello, world!!', '\n  theirs: yes');
  await updateAndConfirm(second, act, me);

  await first.bringToFront();
  await act.click(first.getByRole('button', { name: 'Update…' }));
  const conflict = first.getByRole('region', { name: 'Update conflict' });
  await expect(conflict).toContainText('409');
  await expect(conflict.getByRole('group', { name: /^Your change/ })).toBeVisible();
  await expect(conflict.getByRole('group', { name: /^Their change/ })).toBeVisible();
  await shot(first, testInfo, 'walkthrough-editor-409');
  await act.click(conflict.getByRole('button', { name: 'Reload the stored object and re-apply my change' }));
  await expect(first.getByRole('button', { name: 'Confirm update' })).toBeEnabled();
  await act.click(first.getByRole('button', { name: 'Confirm update' }));
  await expect(first.getByText(`Updated ConfigMap ${me}/example`)).toBeVisible();
  const stored = (await api(first, 'GET', `/api/v1/namespaces/${me}/configmaps/example`)).body as {
    data: Record<string, string>;
  };
  expect(stored.data).toEqual({ greeting: 'hello, world!! (mine)', theirs: 'yes' });

  // 5 a third time.
  await act.click(first.getByRole('link', { name: 'Apply lab', exact: true }));
  await conflictRound(first, act, "Adopt the server's values", 'alice, bob', testInfo);

  // A delete asks first, naming the object and what it reaches, then reports the result.
  await act.click(first.getByRole('link', { name: 'Explorer', exact: true }));
  await act.click(rowOf(first, 'example').getByRole('button', { name: 'Delete example' }));
  const dialog = first.getByRole('dialog');
  await expect(dialog).toHaveAccessibleName(`Delete ConfigMap ${me}/example?`);
  await expect(dialog).toContainText('no object names it as its owner');
  await act.click(dialog.getByRole('button', { name: 'Yes, delete' }));
  await expect(dialog.getByRole('status')).toContainText(`Deleted ConfigMap ${me}/example`);
  await act.click(dialog.getByRole('button', { name: 'Close' }));
  await expect(rowOf(first, 'example')).toHaveCount(0);

  // 6. The workshop shows the server's revision as it is now, and the reset puts everything back.
  await act.click(first.getByRole('link', { name: 'Workshop', exact: true }));
  // What the card says equals what the server says (it used to keep the value read when the app opened).
  const history = first.getByText(/Now at rv \d+, compacted up to rv \d+\./);
  await expect
    .poll(async () => {
      const body = (await api(first, 'GET', '/sandbox/v1/settings')).body as {
        revision: number;
        compactedRevision: number;
      };
      const shown = await history.textContent();
      return shown?.includes(`Now at rv ${body.revision}, compacted up to rv ${body.compactedRevision}.`);
    })
    .toBe(true);
  await act.click(first.getByRole('button', { name: 'Reset the sandbox…' }));
  await act.click(first.getByRole('button', { name: 'Yes, reset the sandbox' }));
  await expect(first.getByText(/^The sandbox is clean/)).toBeVisible();
  expect((await api(first, 'GET', `/api/v1/namespaces/${me}`)).status).toBe(404);

  const total = { ms: Date.now() - started, clicks: act.clicks, typing: act.typing };
  const measured = `README flow (steps 1–5): ${readmeFlow.ms} ms, ${readmeFlow.clicks} clicks, ${readmeFlow.typing} typing; whole walkthrough: ${total.ms} ms, ${total.clicks} clicks, ${total.typing} typing`;
  console.log(measured);
  await testInfo.attach('measurements', { body: measured, contentType: 'text/plain' });

  // The only 409s are the three apply conflicts of Step 2 and the editor conflict made on purpose.
  const conflicts = writes.filter((w) => w.status === 409);
  const expected = (w: Write) =>
    (w.method === 'PATCH' && w.url.includes('/deployments/lab-web')) ||
    (w.method === 'PUT' &&
      w.url.includes('dryRun=All') &&
      w.url.includes(`/namespaces/${me}/configmaps/example`));
  expect(
    conflicts.filter((w) => !expected(w)),
    JSON.stringify(conflicts),
  ).toEqual([]);
  expect(conflicts.filter((w) => w.method === 'PUT')).toHaveLength(1);
});

async function renameInTextarea(page: Page, act: Actions, area: Locator, from: string, to: string) {
  // Select the word and type over it, as a learner would.
  const value = await area.inputValue();
  const start = value.indexOf(`name: ${from}`) + 'name: '.length;
  await area.evaluate(
    (el, [s, e]) =>
      (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(s, e),
    [start, start + from.length] as const,
  );
  await act.type(page, to);
}

/** Clicks at the end of the `greeting:` line of the editor and types `suffix`. */
async function changeGreeting(page: Page, act: Actions, suffix: string) {
  const line = page.locator('.cm-line').filter({ hasText: /^\s*greeting: / });
  await expect(line).toHaveCount(1);
  await act.click(line);
  await page.keyboard.press('End');
  await act.type(page, suffix);
}

async function addLine(page: Page, act: Actions, after: string, text: string) {
  await act.click(page.locator('.cm-line').filter({ hasText: after }));
  await page.keyboard.press('End');
  // Typing a newline in CodeMirror indents; insertText keeps the text exact.
  act.typing++;
  await page.keyboard.insertText(text);
}

async function updateAndConfirm(page: Page, act: Actions, ns: string, testInfo?: TestInfo, name?: string) {
  await act.click(page.getByRole('button', { name: 'Update…' }));
  const preview = page.getByRole('region', { name: 'Dry run preview' });
  await expect(
    preview.getByRole('group', { name: 'Stored object against the dry-run result' }),
  ).toBeVisible();
  await expect(preview.getByRole('alert')).toHaveCount(0);
  if (testInfo !== undefined && name !== undefined) await shot(page, testInfo, name);
  await act.click(page.getByRole('button', { name: 'Confirm update' }));
  await expect(page.getByText(`Updated ConfigMap ${ns}/example`)).toBeVisible();
}

/** The `nth` MODIFIED in the second tab: choose it; its diff shows the change and no kind/apiVersion lines. */
async function expectModified(
  page: Page,
  act: Actions,
  nth: number,
  value: string,
  testInfo?: TestInfo,
  name?: string,
) {
  await page.bringToFront();
  const modified = page
    .getByRole('table', { name: 'Watch events' })
    .getByRole('row')
    .filter({ hasText: 'MODIFIED' });
  await expect(modified).toHaveCount(nth);
  await act.click(modified.nth(nth - 1).getByRole('button'));
  const diff = page.getByLabel('Changes against the previous state');
  await expect(diff.locator('.diff-added')).toContainText([`greeting: ${value}`]);
  const changed = await diff.locator('.diff-added, .diff-removed').allTextContents();
  expect(
    changed.filter((line) => /^[+-] (kind|apiVersion):/.test(line)),
    changed.join('\n'),
  ).toEqual([]);
  if (testInfo !== undefined && name !== undefined) await shot(page, testInfo, name);
}

/** Step 1, Step 2 (a 409 inside the viewport), one way out, and who owns .spec.replicas afterwards. */
async function conflictRound(
  page: Page,
  act: Actions,
  way: string,
  owners: string,
  testInfo: TestInfo,
  name?: string,
) {
  const steps = page.getByRole('region', { name: 'Scenario steps' });
  await act.click(steps.getByRole('button', { name: /^Step 1:/ }));
  await expect(steps.getByRole('listitem').nth(0).getByRole('status')).toContainText('as the rule says');
  await act.click(steps.getByRole('button', { name: /^Step 2:/ }));
  const conflict = page.getByRole('region', { name: 'Conflict of bob' });
  await expect(conflict).toContainText('.spec.replicas');
  await expect(conflict).toBeInViewport({ ratio: 0.99 });
  if (name !== undefined) await shot(page, testInfo, name);
  await act.click(conflict.getByRole('button', { name: way }));
  await expect(conflict).toHaveCount(0);
  const replicas = page
    .getByRole('region', { name: 'Ownership' })
    .locator('.own-line')
    .filter({ hasText: 'replicas:' })
    // spec.replicas: the controller's status lines follow it.
    .first();
  for (const owner of owners.split(', ')) await expect(replicas).toContainText(owner);
}
