/**
 * Layout at 1280×720 (issue 29: the first ten minutes, round 2): what a
 * newcomer needs is inside the first viewport, the header is one row, and
 * no text is cut without a tooltip — in the Identity view (section links
 * styled on first paint, Who am I, the switcher's popover with the longest
 * built-in and saved names, the certificate form), in both themes where
 * colours or fonts could change the measure.
 */

import { expect, test, type Page } from '@playwright/test';
import { clippedTexts, expectInViewport, headerRows } from './support/layout';
import { openSandbox } from './support/sandbox';
import { createConfigMap, openView, waitUsable } from './support/ui';

// A loaded 2-core machine: the worker's first answers can take a while.
test.describe.configure({ timeout: 90_000 });

/** A saved identity (as "Use as identity" leaves one in this tab) with a long name, made before the app loads. */
const longSaved = {
  name: 'sa:sandbox-tutorials/certificate-signing-walkthrough-reader',
  method: 'token',
  token: 'not-a-valid-token',
  expected: {
    username: 'system:serviceaccount:sandbox-tutorials:certificate-signing-walkthrough-reader',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:sandbox-tutorials', 'system:authenticated'],
  },
};

async function withSavedIdentity(page: Page): Promise<void> {
  await page.addInitScript((saved) => {
    (
      globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
    ).sessionStorage.setItem('orch-sandbox.identities.saved', JSON.stringify([saved]));
  }, longSaved);
}

async function openIdentity(page: Page, query = ''): Promise<void> {
  await openSandbox(page, `/#/identity${query}`);
  await expect(page.getByRole('button', { name: /^Acting as admin/ })).toBeVisible({ timeout: 60_000 });
}

test('the Identity view: section links are tabs on first paint, Who am I fits, Change identity is in view', async ({
  page,
}) => {
  await openIdentity(page);
  const links = page.getByRole('navigation', { name: 'Identity sections' }).getByRole('link');
  await expect(links).toHaveCount(3);
  // Styled before either lazy section (and its stylesheet) has loaded: padded, not underlined.
  for (const link of await links.all()) {
    const style = await link.evaluate((a) => {
      const s = (
        globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }
      ).getComputedStyle(a);
      return { padding: parseFloat(s['paddingLeft'] ?? '0'), decoration: s['textDecorationLine'] };
    });
    expect(style.padding).toBeGreaterThan(4);
    expect(style.decoration).toBe('none');
  }
  const whoami = page.locator('.identity-whoami');
  await expect(whoami.getByTestId('acting-as')).toContainText('admin');
  await expectInViewport(page, whoami.getByText('Change identity'), 'Change identity');
  // Names and groups break between tokens: every one-token <code> is on one line.
  await expect(whoami.locator('.access-facts code').first()).toBeVisible();
  const broken = await whoami.locator('.access-facts code').evaluateAll((codes) =>
    codes
      .map((c) => c as unknown as { textContent: string | null; getClientRects(): ArrayLike<unknown> })
      .filter((c) => !/\s/.test(c.textContent ?? '') && c.getClientRects().length > 1)
      .map((c) => c.textContent),
  );
  expect(broken).toEqual([]);
  expect(await clippedTexts(whoami)).toEqual([]);
});

test('the identity switcher stays inside the viewport with the longest built-in and saved names', async ({
  page,
}) => {
  // The full identities list waits for the built-in certificates and the service account's signing key, made
  // on first use: key generation took over 10 s on a 2-core CI machine at load 20.
  test.setTimeout(60_000);
  await withSavedIdentity(page);
  await openIdentity(page);
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await expect(dialog.getByRole('radio', { name: /^service-account/ })).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('radio', { name: new RegExp(`^${longSaved.name}`) })).toBeVisible();
  await expectInViewport(page, dialog, 'the switcher popover');
  for (const label of await dialog.locator('label').all()) await expectInViewport(page, label, 'a choice');
  // Nothing inside scrolls sideways or is cut.
  expect(
    await dialog.evaluate(
      (d) =>
        (d as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth -
        (d as unknown as { clientWidth: number }).clientWidth,
    ),
  ).toBeLessThanOrEqual(0);
  expect(await clippedTexts(dialog)).toEqual([]);
});

test('the certificate form: submit in the first viewport, signer and lifetime readable whole', async ({
  page,
}) => {
  await openIdentity(page, '?section=certificates');
  const form = page.getByRole('form', { name: 'New certificate request' });
  await expect(form.getByRole('button', { name: 'Generate key and submit' })).toBeVisible({
    timeout: 30_000,
  });
  await expectInViewport(
    page,
    form.getByRole('button', { name: 'Generate key and submit' }),
    'the submit button',
  );
  expect(await clippedTexts(form)).toEqual([]);
});

test('the Watch form reads whole: selectors, the Start choice and the event table header', async ({
  page,
}) => {
  await openView(page, 'watch');
  const form = page.getByRole('form', { name: 'Watch request' });
  await expect(form.getByRole('button', { name: 'Start watch' })).toBeEnabled({ timeout: 60_000 });
  expect(await clippedTexts(form)).toEqual([]);
  await expectInViewport(page, form.getByRole('button', { name: 'Start watch' }), 'Start watch');
  await form.getByRole('button', { name: 'Start watch' }).click();
  const events = page.getByRole('table', { name: 'Watch events' });
  await expect(events.getByText(/^listed \d+ objects? at resourceVersion \d+$/)).toBeVisible();
  // Header cells whole; a long note or object name is cut with its tooltip (allowed).
  expect(await clippedTexts(events)).toEqual([]);
});

test('the explorer toolbar is one row for every kind, and Create proposes a name the list does not hold', async ({
  page,
}) => {
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: 'default' });
  await waitUsable(page);
  await createConfigMap(page, 'example');
  await createConfigMap(page, 'example-2');
  for (const kind of ['v1/configmaps', 'v1/namespaces']) {
    await openView(page, 'explorer', { kind, ns: 'default' });
    await waitUsable(page);
    const toolbar = page.locator('.explorer .toolbar');
    const [heading, refresh] = await Promise.all([
      toolbar.getByRole('heading').boundingBox(),
      toolbar.getByRole('button', { name: 'Refresh' }).boundingBox(),
    ]);
    expect(
      heading && refresh && Math.abs(heading.y + heading.height / 2 - (refresh.y + refresh.height / 2)),
      kind,
    ).toBeLessThan(8);
    expect(await clippedTexts(toolbar), kind).toEqual([]);
    // The common kinds' names show whole (only a long one gives way, with its tooltip).
    expect(
      await toolbar.getByRole('heading').evaluate((h) => {
        const el = h as unknown as { scrollWidth: number; clientWidth: number };
        return el.scrollWidth - el.clientWidth;
      }),
      kind,
    ).toBeLessThanOrEqual(0);
  }
  // After the reload: the list holds example and example-2, so the template proposes example-3, and Create works.
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: 'default' });
  await waitUsable(page);
  const create = page.getByRole('region', { name: 'Create' });
  await expect(create.getByLabel('Object (YAML or JSON)')).toHaveValue(/ {2}name: example-3\n/);
  await create.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(create.getByText(/^Created ConfigMap example-3/)).toBeVisible();
  // The next proposal moves on by itself.
  await expect(create.getByLabel('Object (YAML or JSON)')).toHaveValue(/ {2}name: example-4\n/);
});

/** Acts as the identity whose radio `label` names, through the header's switcher. */
async function actAs(page: Page, label: RegExp): Promise<void> {
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await dialog.getByRole('radio', { name: label }).check();
  await dialog.getByRole('button', { name: 'Act as this identity' }).click();
  await expect(dialog).toHaveCount(0);
}

async function expectOneRowHeader(page: Page, who: string): Promise<void> {
  const header = page.locator('header.header');
  const { height, rows } = await headerRows(page);
  expect(rows, `${who}: header rows`).toBe(1);
  expect(height, `${who}: header height`).toBeLessThan(52);
  // Every item, the last one (the theme) included, is inside the window; a cut name has its tooltip.
  for (const item of await header.locator(':scope > *:not(.skip-link)').all())
    await expectInViewport(page, item, `${who}: a header item`);
  expect(await clippedTexts(header), who).toEqual([]);
  // The tab strip may scroll on a narrow window; at 1280 px every tab shows whole.
  const tabs = header.getByRole('navigation', { name: 'Views' });
  expect(
    await tabs.evaluate((nav) => {
      const el = nav as unknown as { scrollWidth: number; clientWidth: number };
      return el.scrollWidth - el.clientWidth;
    }),
    `${who}: tabs cut`,
  ).toBeLessThanOrEqual(0);
}

test('the header is one row at 1280 px as admin, as alice and as a long saved identity, in both themes', async ({
  page,
}) => {
  await withSavedIdentity(page);
  await openIdentity(page);
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expectOneRowHeader(page, `admin, ${theme}`);
  }
  await actAs(page, /^alice/);
  await expect(page.getByRole('button', { name: /^Acting as alice/ })).toBeVisible();
  await expectOneRowHeader(page, 'alice');
  await actAs(page, new RegExp(`^${longSaved.name}`));
  const chip = page.getByRole('button', { name: new RegExp(`^Acting as ${longSaved.name}`) });
  await expect(chip).toHaveAttribute('title', new RegExp(longSaved.name));
  await expectOneRowHeader(page, 'a long saved identity');
});

test('a refused list with an object open: one explanation on screen, nothing scrolled by itself', async ({
  page,
}) => {
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: 'default' });
  await waitUsable(page);
  await createConfigMap(page, 'opened');
  await openView(page, 'explorer', {
    kind: 'v1/configmaps',
    ns: 'default',
    name: 'opened',
    objns: 'default',
  });
  await waitUsable(page);
  await actAs(page, /^alice/);
  const alert = page.getByRole('alert').filter({ hasText: 'Listing failed' });
  await expect(alert).toContainText('User "alice" cannot list resource "configmaps"');
  await expect(page.locator('[data-access-explain="authorization"]')).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Object' })).toContainText('opened is not shown');
  // The panes stay where the learner left them.
  const scrolled = await page.evaluate(() => {
    const doc = (
      globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ scrollTop: number }> } }
    ).document;
    return Array.from(doc.querySelectorAll('.explorer *')).some((el) => el.scrollTop > 0);
  });
  expect(scrolled).toBe(false);
  await expectOneRowHeader(page, 'alice in the explorer');
});

test('a first visit shows the explorer shell at once: skeleton rows, never a blank objects pane', async ({
  page,
}) => {
  // Watches every change of the page until the explorer is usable: the objects pane must always hold something.
  await page.addInitScript(() => {
    const g = globalThis as unknown as {
      __pane: { blank: number; skeleton: number; checks: number };
      document: {
        querySelector(s: string): { querySelector(s: string): unknown } | null;
      };
      MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void; disconnect(): void };
    };
    g.__pane = { blank: 0, skeleton: 0, checks: 0 };
    const observer = new g.MutationObserver(() => {
      const pane = g.document.querySelector('.explorer .content');
      if (pane === null) return;
      if (g.document.querySelector('[data-usable="true"]') !== null) return observer.disconnect();
      g.__pane.checks++;
      if (pane.querySelector('[data-testid="skeleton-rows"]') !== null) g.__pane.skeleton++;
      else if (pane.querySelector('table.objects, .error, .empty-guide') === null) g.__pane.blank++;
    });
    // The document itself: its root element does not exist yet when this runs.
    observer.observe(g.document, { childList: true, subtree: true });
  });
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: 'default' });
  await waitUsable(page);
  const pane = await page.evaluate(() => (globalThis as unknown as { __pane: unknown }).__pane);
  expect(pane).toMatchObject({ blank: 0 });
  expect((pane as { skeleton: number }).skeleton).toBeGreaterThan(0);
});
