/**
 * The Server view in the browser: the versions timeline changes the state
 * of removed APIs as the release moves from v1.16 to v1.25 and marks what
 * this server serves; the metrics section's request counter and chart grow
 * after requests are made, and its raw toggle shows the exposition text; the
 * health section lists each endpoint's named checks as the server reports
 * them and teaches `exclude` by sending it. Axe finds no serious problem in
 * any section, in light and dark themes.
 */

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, apiOk, openSandbox, uniqueName } from './support/sandbox';
import { configMap, shot } from './support/ui';

// Axe runs twice per test (light and dark) and the metrics need several readings: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

async function openSection(page: Page, query: string): Promise<void> {
  await openSandbox(page, `/#/server${query}`);
  await expect(page.locator('.view:not([hidden]) main')).toBeVisible();
  await expect(page.locator('.view:not([hidden]) .view-loading')).toHaveCount(0);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    const results = await new AxeBuilder({ page }).include('.view:not([hidden]) main').analyze();
    found.push(
      ...results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `[${theme}] ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    );
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Scrolls the view and the window back to the top, so a screenshot starts with the section's heading. */
async function scrollToTop(page: Page): Promise<void> {
  await page.locator('.view:not([hidden]) main').evaluate((el) => {
    (el as unknown as { scrollTop: number }).scrollTop = 0;
    (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0);
  });
}

function apiRow(page: Page, api: string): Locator {
  return page.locator(`tr[data-api="${api}"]`);
}

/** The API group names of the profile the page runs, from discovery (`orch.io` or `k8s.io`). */
async function suffix(page: Page): Promise<string> {
  const groups = await apiOk<{ groups: { name: string }[] }>(page, 'GET', '/apis');
  return groups.groups.some((g) => g.name.endsWith('.k8s.io')) ? 'k8s.io' : 'orch.io';
}

test('the versions timeline: v1.16 and v1.25 differ for Ingress, PodSecurityPolicy and CronJob', async ({
  page,
}, testInfo) => {
  await openSection(page, '');
  const slider = page.getByRole('slider', { name: 'Release' });
  // Eleven tabs, the identity switcher and the theme switch still fit the header at 1280 px.
  const header = page.locator('header.header');
  expect(
    await header.evaluate((el) => (el as unknown as { scrollWidth: number }).scrollWidth),
  ).toBeLessThanOrEqual(
    await header.evaluate((el) => (el as unknown as { clientWidth: number }).clientWidth),
  );
  // The view opens at the release this server implements.
  await expect(page.getByTestId('chosen-release')).toHaveText('v1.27');

  await slider.fill('16');
  await expect(page.getByTestId('chosen-release')).toHaveText('v1.16');
  await expect(page).toHaveURL(/#\/server\?section=versions&release=16$/);
  const ingress = apiRow(page, 'extensions/v1beta1 Ingress');
  const psp = apiRow(page, 'policy/v1beta1 PodSecurityPolicy');
  const cronJob = apiRow(page, 'batch/v1beta1 CronJob');
  await expect(ingress.getByTestId('state')).toHaveText(/Deprecated/);
  await expect(psp.getByTestId('state')).toHaveText(/Served/);
  await expect(cronJob.getByTestId('state')).toHaveText(/Served/);
  // At v1.16 batch/v1 CronJob did not exist yet (v1.21): the page says so.
  await expect(cronJob).toContainText('not available until v1.21');
  await expect(page.getByTestId('versions-summary')).toContainText('At v1.16:');

  await page
    .getByRole('group', { name: 'Releases' })
    .getByRole('button', { name: '25', exact: true })
    .click();
  await expect(page.getByTestId('chosen-release')).toHaveText('v1.25');
  await expect(ingress.getByTestId('state')).toHaveText(/Removed/);
  await expect(psp.getByTestId('state')).toHaveText(/Removed/);
  await expect(cronJob.getByTestId('state')).toHaveText(/Removed/);
  await expect(cronJob).toContainText('served since v1.21');
  await expect(ingress).toContainText('service.port.number');

  // What this server (v1.27) serves, from discovery: not CronJob's v1beta1, but FlowSchema's v1beta2 (deprecated).
  const flowcontrol = `flowcontrol.apiserver.${await suffix(page)}`;
  await expect(cronJob.getByTestId('served-here')).toHaveText('Not served');
  await expect(apiRow(page, `${flowcontrol}/v1beta2 FlowSchema`).getByTestId('served-here')).toHaveText(
    'Served here',
  );
  await expect(apiRow(page, `${flowcontrol}/v1beta2 FlowSchema`).getByTestId('state')).toHaveText(/Served/);

  // The keyboard moves the slider too.
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('chosen-release')).toHaveText('v1.26');
  await expect(apiRow(page, `${flowcontrol}/v1beta2 FlowSchema`).getByTestId('state')).toHaveText(
    /Deprecated/,
  );

  await slider.fill('25');
  await expect(page.getByTestId('chosen-release')).toHaveText('v1.25');
  await slider.blur();
  expect(await seriousViolations(page)).toEqual([]);
  await scrollToTop(page);
  await shot(page, testInfo, 'versions-timeline');
});

test('metrics: the request counter and chart grow after requests, and the raw text is one click away', async ({
  page,
}, testInfo) => {
  await openSection(page, '?section=metrics');
  const requests = page.getByTestId('requests');
  const totalText = requests.getByTestId('requests-total');
  await expect(totalText).toHaveText(/^\d+$/);
  const before = Number(await totalText.textContent());
  // Two readings make the first rate point.
  await expect(requests.locator('figure.line-chart polyline').first()).toBeAttached();

  // Stored objects, when the server exposes them: the configmaps bar grows with the creates too.
  const stored = page.getByTestId('stored');
  const storedExposed = (await stored.locator('.metric-missing').count()) === 0;
  const configMaps = stored.locator('li[data-resource="configmaps"] .bar-value');
  const storedBefore = storedExposed ? Number(await configMaps.textContent()) : 0;

  for (let i = 0; i < 5; i++)
    await apiOk(
      page,
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap(uniqueName('metrics'), { i: String(i) }),
      201,
    );
  await expect
    .poll(async () => Number(await totalText.textContent()), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(before + 5);
  await expect(requests.locator('.chart-legend li', { hasText: 'POST' })).toBeVisible();
  if (storedExposed)
    await expect
      .poll(async () => Number(await configMaps.textContent()), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(storedBefore + 5);

  await scrollToTop(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, testInfo, 'metrics');

  await page.getByRole('button', { name: 'Show raw text' }).click();
  await expect(page.getByTestId('metrics-raw')).toContainText('# TYPE apiserver_request_total counter');
  await page.getByRole('button', { name: 'Show charts' }).click();
  await expect(totalText).toBeVisible();
});

async function serverChecks(page: Page, endpoint: string): Promise<string[]> {
  const answer = await api(page, 'GET', `/${endpoint}?verbose`);
  return String(answer.body)
    .split('\n')
    .map((line) => /^\[[+-]\](\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

function checksOf(page: Page, endpoint: string): Locator {
  return page.locator(`[data-endpoint="${endpoint}"] .health-checks li`);
}

test('health: each endpoint lists the checks the server names, and exclude is sent and shown', async ({
  page,
}, testInfo) => {
  await openSection(page, '?section=health');
  for (const endpoint of ['livez', 'readyz', 'healthz']) {
    const expected = await serverChecks(page, endpoint);
    expect(expected, `${endpoint} names ping`).toContain('ping');
    await expect
      .poll(() =>
        checksOf(page, endpoint).evaluateAll((items) => items.map((li) => li.getAttribute('data-check'))),
      )
      .toEqual(expected);
    await expect(page.locator(`[data-endpoint="${endpoint}"]`).getByTestId('final-line')).toHaveText(
      `${endpoint} check passed`,
    );
  }

  const livez = page.locator('[data-endpoint="livez"]');
  await livez.getByRole('checkbox', { name: 'exclude ping' }).check();
  await expect(livez.getByTestId('request-line')).toHaveText('GET /livez?verbose&exclude=ping');
  await expect(livez.locator('li[data-check="ping"]')).toContainText('excluded: ok');
  // A name that matches no check is sent as well; it stays listed so it can be unticked.
  await livez.getByLabel('Exclude another name').fill('no-such-check');
  await livez.getByRole('button', { name: 'Add' }).click();
  await expect(livez.getByTestId('request-line')).toHaveText(
    'GET /livez?verbose&exclude=ping&exclude=no-such-check',
  );
  await expect(livez.locator('li[data-check="no-such-check"]')).toBeVisible();

  expect(await seriousViolations(page)).toEqual([]);
  await scrollToTop(page);
  await shot(page, testInfo, 'health');
});

test('health: the store check is etcd and readyz ends with shutdown, as on the real server', async ({
  page,
}) => {
  await openSandbox(page, '/');
  const readyz = await serverChecks(page, 'readyz');
  test.skip(
    !readyz.includes('etcd') || !readyz.includes('shutdown'),
    `SKIP: this server's readyz names ${readyz.join(', ')} — the real check names (issue 14 item 7) have not landed`,
  );
  await openSection(page, '?section=health');
  await expect(checksOf(page, 'readyz').first()).toHaveAttribute('data-check', 'ping');
  await expect(page.locator('[data-endpoint="readyz"] li[data-check="etcd"]')).toContainText('ok');
  await expect(checksOf(page, 'readyz').last()).toHaveAttribute('data-check', 'shutdown');
});
