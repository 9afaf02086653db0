/**
 * The admission trace in the browser: a write from the editor or the
 * console links to its trace by Audit-Id; the trace draws the chain (the
 * default plugins, mutating then validating) and every step's details, a
 * mutation as a patch and a YAML diff, a denial highlighted with its
 * message and code; the recent list shows each write, live; and the
 * diagram is usable from the keyboard.
 */

import { expect, test, type Page } from '@playwright/test';
import { apiOk, uniqueName } from './support/sandbox';
import { openView, setEditorText, shot, waitUsable } from './support/ui';

// Each test boots the in-browser server and sends several writes: more than the default 30 s on a loaded machine.
test.describe.configure({ timeout: 90_000 });

/** The console, once the server has started and discovery is loaded (the explorer says so). */
async function openConsole(page: Page): Promise<void> {
  await openView(page, 'explorer');
  await waitUsable(page);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Console' }).click();
}

test('an editor create opens its trace: the chain, its steps and what a plugin changed', async ({
  page,
}, testInfo) => {
  // Through the explorer, so discovery is loaded before the editor resolves the manifest's kind.
  await openView(page, 'explorer');
  await waitUsable(page);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Editor' }).click();
  const name = uniqueName('traced');
  await setEditorText(
    page,
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  containers:\n  - name: app\n    image: nginx\n`,
  );
  await page.getByRole('button', { name: 'Create…' }).click();
  const preview = page.getByRole('region', { name: 'Dry run preview' });
  await preview.getByRole('button', { name: 'Confirm create' }).click();
  await expect(page.getByText(`Created Pod default/${name}`)).toBeVisible();
  await page.getByRole('link', { name: 'Open admission trace' }).click();

  const trace = page.getByRole('region', { name: 'Admission trace' });
  await expect(
    trace.getByRole('heading', { name: /POST \/api\/v1\/namespaces\/default\/pods/ }),
  ).toBeVisible();
  await expect(trace.getByText('HTTP 201')).toBeVisible();
  const chain = trace.getByRole('list', { name: 'Admission chain, in the order it ran' });
  await expect(chain.getByRole('heading', { name: 'Mutating plugins', exact: true })).toBeVisible();
  await expect(chain.getByRole('heading', { name: 'Validating plugins', exact: true })).toBeVisible();
  await expect(chain.getByRole('button', { name: /NamespaceLifecycle: allowed/ }).first()).toBeVisible();

  // DefaultTolerationSeconds changed the pod: its node says so, and its details hold the patch and the diff.
  const node = chain.getByRole('button', { name: /DefaultTolerationSeconds: changed the object/ });
  await node.focus();
  await page.keyboard.press('Enter');
  const card = trace.getByRole('article', { name: /DefaultTolerationSeconds/ });
  await expect(card).toBeFocused();
  await expect(card.getByRole('table', { name: /JSON patch/ })).toContainText('/spec/tolerations');
  await expect(card.getByLabel('Object before and after DefaultTolerationSeconds')).toContainText(
    'tolerationSeconds: 300',
  );
  await shot(page, testInfo, 'admission-trace');

  // The recent list has it, marked as the one shown. (The simulated cluster then schedules and runs the
  // pod: its binding and status writes arrive in the list above it, so the check is on the marked entry.)
  const recent = page.getByRole('region', { name: 'Recent traces' });
  await expect(recent.locator('a[aria-current="true"]')).toContainText(
    /POST\s*\/api\/v1\/namespaces\/default\/pods\s*201/,
  );
});

test('a console write refused by NamespaceLifecycle: the denial is highlighted with its message', async ({
  page,
}, testInfo) => {
  await openConsole(page);
  const composer = page.getByRole('form', { name: 'Request' });
  await composer.getByLabel('Method').selectOption('POST');
  await composer.getByLabel('Path').fill('/api/v1/namespaces/nowhere/pods');
  await composer.getByLabel('Body').fill(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'lost', namespace: 'nowhere' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    }),
  );
  await composer.getByRole('button', { name: 'Send' }).click();
  const response = page.getByRole('region', { name: 'Response' });
  await expect(response.getByText('404 Not Found')).toBeVisible();
  await response.getByRole('link', { name: 'Open admission trace' }).click();

  const trace = page.getByRole('region', { name: 'Admission trace' });
  await expect(trace.getByText('Denied by NamespaceLifecycle (HTTP 404).')).toBeVisible();
  const denied = trace.getByRole('button', { name: /NamespaceLifecycle: denied/ });
  await expect(denied).toHaveClass(/decision-denied/);
  const card = trace.getByRole('article', { name: /NamespaceLifecycle/ });
  await expect(card).toHaveClass(/decision-denied/);
  await expect(card).toContainText('namespaces "nowhere" not found');
  await expect(card).toContainText('HTTP 404');
  await shot(page, testInfo, 'admission-trace-denied');

  // The request log links to the same trace.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Console' }).click();
  const log = page.getByRole('region', { name: 'Request log' });
  await log.getByPlaceholder('Filter: method, path or status…').fill('nowhere');
  await expect(
    log.getByRole('link', { name: /Admission trace of POST \/api\/v1\/namespaces\/nowhere\/pods/ }),
  ).toBeVisible();
});

test('an editor dry run refused by admission explains itself and links to its trace', async ({ page }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  const ns = uniqueName('no-cm');
  await apiOk(
    page,
    'POST',
    '/api/v1/namespaces',
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    201,
  );
  await apiOk(
    page,
    'POST',
    `/api/v1/namespaces/${ns}/resourcequotas`,
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'none' },
      spec: { hard: { 'count/configmaps': '0' } },
    },
    201,
  );
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Editor' }).click();
  await setEditorText(page, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: over\n  namespace: ${ns}\n`);
  await page.getByRole('button', { name: 'Create…' }).click();
  const preview = page.getByRole('region', { name: 'Dry run preview' });
  const refusal = preview.getByRole('alert');
  await expect(refusal).toContainText('The server would refuse this create');
  await expect(refusal).toContainText('exceeded quota: none');
  // Why and Next, as for other errors, and the trace of the dry run itself.
  await expect(refusal).toHaveAttribute('data-explanation', 'admission-denied');
  await expect(refusal).toContainText('the ResourceQuota plugin said no');
  await refusal.getByRole('link', { name: 'Open admission trace' }).click();
  const trace = page.getByRole('region', { name: 'Admission trace' });
  await expect(
    trace.getByRole('heading', { name: new RegExp(`POST /api/v1/namespaces/${ns}/configmaps`) }),
  ).toBeVisible();
  await expect(trace.getByText('Dry run', { exact: true })).toBeVisible();
  await expect(trace.getByText(/^Denied by ResourceQuota \(HTTP 403\)/)).toBeVisible();
});

test('a dry run is traced and labelled', async ({ page }) => {
  await openConsole(page);
  const composer = page.getByRole('form', { name: 'Request' });
  await composer.getByLabel('Method').selectOption('POST');
  await composer.getByLabel('Path').fill('/api/v1/namespaces/default/configmaps');
  await composer.getByRole('button', { name: 'Add query parameter' }).click();
  await composer.getByLabel('Query parameters name 1').fill('dryRun');
  await composer.getByLabel('Query parameters value 1').fill('All');
  await composer.getByLabel('Body').fill(JSON.stringify({ metadata: { name: uniqueName('dry') } }));
  await composer.getByRole('button', { name: 'Send' }).click();
  const response = page.getByRole('region', { name: 'Response' });
  await expect(response.getByText('201 Created')).toBeVisible();
  await response.getByRole('link', { name: 'Open admission trace' }).click();
  const trace = page.getByRole('region', { name: 'Admission trace' });
  await expect(trace.getByText('Dry run', { exact: true })).toBeVisible();
  await expect(trace.getByText(/A dry run: this is the chain a real write would run/)).toBeVisible();
});

test('the traces view fits a projector without sideways scrolling', async ({ page }) => {
  await openView(page, 'console');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Traces' }).click();
  await expect(page.getByRole('heading', { name: 'Admission trace', exact: true })).toBeVisible();
  await expect(page.getByText('live', { exact: true })).toBeVisible();
  const overflow = await page.evaluate(
    `[...document.querySelectorAll('.trace-view, .trace-main, .trace-side')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.className)`,
  );
  expect(overflow).toEqual([]);
});
