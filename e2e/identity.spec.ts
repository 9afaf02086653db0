/**
 * Identity in the UI: the header's "Acting as" switcher makes every view act
 * as another identity; a 403 explains itself (who the server saw, the rule
 * that is missing) and offers the exact grant, applied as admin after a dry
 * run with its diff; a raw request without credentials is anonymous; a
 * stale token's 401 lists the authenticators and why each said no; the
 * certificate identity signs its requests and is served as sandbox-admin;
 * an OIDC user minted by the sandbox issuer and impersonation both reach the
 * server as the users they name; and the Identity view's matrix says what
 * the identity may do, cell by cell, with axe finding no serious problem in
 * either theme.
 */

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { uniqueName } from './support/sandbox';
import { expectInViewport } from './support/layout';
import { createConfigMap, openView, rowOf, shot, waitUsable } from './support/ui';
import { awaitedLater } from '../test/support/awaited-later';

/** Opens the header's switcher and acts as the identity `label` names (a radio in its form). */
async function actAs(page: Page, label: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await dialog.getByRole('radio', { name: label }).check();
  return submitIdentity(page);
}

async function submitIdentity(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await dialog.getByRole('button', { name: 'Act as this identity' }).click();
  await expect(dialog).toHaveCount(0);
}

function listingAlert(page: Page) {
  return page.getByRole('alert').filter({ hasText: 'Listing failed' });
}

async function grantAsAdmin(
  panel: ReturnType<typeof listingAlert>,
  roleName: string,
  onPreview: () => Promise<void> = async () => undefined,
) {
  await panel.getByRole('button', { name: 'Grant this as admin…' }).click();
  await panel.getByRole('button', { name: 'Dry run as admin' }).click();
  // The dry run's diff against what is stored (nothing yet): the new Role, then the binding.
  await expect(panel.getByLabel(`Diff of Role ${roleName}`)).toContainText(`name: ${roleName}`);
  await expect(panel.getByLabel(`Diff of RoleBinding ${roleName}`)).toContainText('kind: User');
  await onPreview();
  await panel.getByRole('button', { name: 'Confirm: apply as admin' }).click();
}

test('alice is forbidden ConfigMaps, the 403 names the missing rule, and the grant lets her list them', async ({
  page,
}, testInfo) => {
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: 'default' });
  await waitUsable(page);
  const name = uniqueName('for-alice');
  await createConfigMap(page, name, { greeting: 'hello' });
  await expect(rowOf(page, name)).toBeVisible();

  await actAs(page, /^alice/);
  await expect(page.getByRole('button', { name: /^Acting as alice \(bearer token\)/ })).toBeVisible();

  // The explorer lists again as alice: 403, with the sandbox's explanation under the server's message.
  const alert = listingAlert(page);
  await expect(alert).toContainText('User "alice" cannot list resource "configmaps"');
  const panel = alert.locator('[data-access-explain="authorization"]');
  // Under the refusal only the error: no empty-state text, no object count, no "reconnecting".
  await expect(page.getByText(/No configmaps here yet/)).toHaveCount(0);
  await expect(page.locator('.object-count')).toHaveCount(0);
  await expect(page.getByText('reconnecting…')).toHaveCount(0);
  // One line leads (who, which verb on what, where) with the Grant button in the first viewport, unscrolled.
  await expect(panel.locator('.access-lead')).toContainText(
    'alice may not list configmaps in the core group "" in namespace default.',
  );
  await expectInViewport(page, panel.getByRole('button', { name: 'Grant this as admin…' }), 'Grant');
  await expectInViewport(page, page.getByRole('combobox', { name: 'Namespace' }), 'the namespace picker');
  await expectInViewport(page, page.getByRole('button', { name: 'Create', exact: true }), 'Create');
  // The rest is behind "Why?".
  await expect(panel.getByText('The server saw')).toBeHidden();
  await panel.getByText('Why?', { exact: true }).click();
  await expect(panel.getByText('The server saw')).toBeVisible();
  await expect(panel.getByTestId('missing-rule')).toHaveText(
    'verbs [list] on configmaps in groups [""] in namespace default',
  );
  await expect(panel).toContainText('system:basic-user');
  await expect(panel).toContainText('lacks verb, apiGroup, resource');
  await expect(
    panel.getByRole('heading', { name: 'Would allow it, but bound to someone else' }),
  ).toBeVisible();
  await shot(page, testInfo, 'identity-403');

  await grantAsAdmin(alert, 'allow-alice-list-configmaps', () =>
    shot(page, testInfo, 'identity-grant-dry-run'),
  );
  // Alice may list now: the rows come back. The live table also watches, which is a separate verb.
  await expect(rowOf(page, name)).toBeVisible();
  const watchAlert = listingAlert(page);
  await expect(watchAlert.getByTestId('missing-rule')).toHaveText(
    'verbs [watch] on configmaps in groups [""] in namespace default',
  );
  await shot(page, testInfo, 'identity-403-watch');
  await grantAsAdmin(watchAlert, 'allow-alice-watch-configmaps');
  await expect(listingAlert(page)).toHaveCount(0);
  await expect(rowOf(page, name)).toBeVisible();
  await shot(page, testInfo, 'identity-granted');

  // The choice lasts for this tab: a reload still acts as alice.
  await page.reload();
  await expect(page.getByRole('button', { name: /^Acting as alice/ })).toBeVisible();
  await expect(rowOf(page, name)).toBeVisible();
});

test('a raw request without credentials is anonymous, and so is the UI acting as anonymous', async ({
  page,
}) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  const raw = await page.evaluate(async () => {
    const response = await fetch('/api/v1/namespaces/default/configmaps');
    const explain = response.headers.get('x-sandbox-explain');
    return {
      status: response.status,
      body: (await response.json()) as { message?: string },
      user:
        explain === null
          ? undefined
          : (JSON.parse(decodeURIComponent(explain)) as { user?: { username?: string } }).user,
    };
  });
  expect(raw.status).toBe(403);
  expect(raw.body.message).toContain('User "system:anonymous" cannot list resource "configmaps"');
  expect(raw.user?.username).toBe('system:anonymous');

  await actAs(page, /^anonymous/);
  // Anonymous may not even read discovery (system:discovery is bound to system:authenticated only).
  const alert = page.getByRole('alert').filter({ hasText: 'Discovery failed' });
  await expect(alert.locator('[data-access-explain="authorization"]')).toContainText(
    'system:anonymous in groups system:unauthenticated',
  );
  await expect(alert).toContainText('Anonymous users are only in system:unauthenticated');
});

test('a stale token answers 401 with every authenticator and why it said no', async ({ page }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  // What a tab remembers (sessionStorage): here a token the server never issued.
  // The callback runs in the page; the e2e sources compile without DOM types, hence the structural cast.
  await page.evaluate(() =>
    (
      globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
    ).sessionStorage.setItem(
      'orch-sandbox.identity',
      JSON.stringify({ name: 'stale', method: 'token', token: 'nope' }),
    ),
  );
  await page.reload();
  await expect(page.getByRole('button', { name: /^Acting as stale/ })).toBeVisible();
  const panel = page.locator('[data-access-explain="authentication"]').first();
  await expect(panel.getByRole('heading', { name: 'Why the server did not know you (401)' })).toBeVisible();
  await expect(
    panel.getByRole('row', { name: /bearer rejected the credential invalid bearer token/ }),
  ).toBeVisible();
  await expect(panel.getByRole('row', { name: /oidc no credential of its kind/ })).toBeVisible();
});

test('the certificate identity signs its requests and the server serves it as sandbox-admin', async ({
  page,
}, testInfo) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  // Every view acts as the certificate now: the explorer lists again, each request signed with its key.
  const signed = awaitedLater(
    page.waitForRequest(
      (r) =>
        r.url().includes('/api/v1/') &&
        r.headers()['x-sandbox-client-certificate'] !== undefined &&
        r.headers()['x-sandbox-client-signature'] !== undefined &&
        r.headers()['authorization'] === undefined,
    ),
  );
  await actAs(page, /^admin-cert/);
  await expect(
    page.getByRole('button', { name: /^Acting as admin-cert \(client certificate\)/ }),
  ).toBeVisible();
  await signed;
  await waitUsable(page);

  await page.getByRole('link', { name: 'Identity', exact: true }).click();
  const main = page.getByRole('main');
  await expect(main.getByTestId('acting-as')).toContainText('admin-cert, sending a client certificate');
  await expect(main.getByTestId('expected-user')).toContainText('sandbox-admin in groups system:masters');
  // The server answered the rules review for the certificate's user: system:masters may do everything.
  const cell = main.getByRole('button', { name: 'list configmaps: allowed', exact: true });
  await expect(cell).toBeVisible();
  await cell.click();
  await expect(main.getByRole('complementary', { name: 'Why this cell' })).toContainText(
    'verbs [*] on * in groups [*]',
  );
  await main.getByRole('button', { name: 'Ask the server (SelfSubjectAccessReview)' }).click();
  await expect(main.getByTestId('access-review')).toContainText('The server says allowed');
  await shot(page, testInfo, 'identity-certificate');
});

test('an OIDC user and an impersonated user reach the server as the users they name', async ({ page }) => {
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: 'default' });
  await waitUsable(page);
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose the identity the UI acts as' });
  await dialog.getByRole('radio', { name: /^OIDC user/ }).check();
  await dialog.getByLabel('Subject (sub)').fill('bob');
  await dialog.getByLabel('Groups', { exact: true }).first().fill('developers');
  await submitIdentity(page);
  await expect(page.getByRole('button', { name: /^Acting as oidc:bob \(OIDC id_token\)/ })).toBeVisible();
  await expect(listingAlert(page).locator('[data-access-explain="authorization"]')).toContainText(
    'oidc:bob in groups oidc:developers, system:authenticated',
  );

  // Admin impersonating alice: the request is authorized as alice.
  await page.getByRole('button', { name: /^Acting as .*Change identity$/ }).click();
  await dialog.getByRole('radio', { name: /^admin token/ }).check();
  await dialog.getByRole('group', { name: 'Impersonate (optional)' }).getByLabel('User').fill('alice');
  await submitIdentity(page);
  await expect(page.getByRole('button', { name: /^Acting as admin → alice/ })).toBeVisible();
  await expect(listingAlert(page)).toContainText('User "alice" cannot list resource "configmaps"');
});

test('the Identity view: who am I, the matrix from the keyboard, no serious axe findings', async ({
  page,
}) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  await actAs(page, /^alice/);
  await page.getByRole('link', { name: 'Identity', exact: true }).click();
  const main = page.getByRole('main');
  await expect(main.getByTestId('expected-user')).toContainText('alice in groups system:authenticated');
  const first = main.locator('.matrix-cell[tabindex="0"]');
  await expect(first).toHaveCount(1);
  await first.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(main.getByRole('complementary', { name: 'Why this cell' })).toContainText('deletecollection');
  await main.getByLabel('Filter kinds').fill('configmaps');
  await expect(main.getByRole('button', { name: 'list configmaps: denied', exact: true })).toBeVisible();
  await main.getByRole('button', { name: 'list configmaps: denied', exact: true }).click();
  await main.getByRole('button', { name: 'Ask the server (SelfSubjectAccessReview)' }).click();
  await expect(main.getByTestId('access-review')).toContainText('The server says not allowed');

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${theme} theme`).toEqual([]);
  }
});
