/**
 * The explorer at scale: with 1,500 ConfigMaps created through the API while
 * it is open, it counts them all but keeps only a window of rows in the
 * DOM, scrolling to the end shows the last object, an object created
 * afterwards still appears live, and the windowed table (spacer rows,
 * aria-rowindex) passes axe-core.
 */

import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiOk } from './support/sandbox';
import { createConfigMap, openView, rowOf, waitUsable } from './support/ui';

const COUNT = 1500;

test('1,500 ConfigMaps: counted, windowed, scrollable to the end, still live', async ({ page }) => {
  test.setTimeout(240_000);
  const namespace = `scale-${Date.now().toString(36)}`;
  await openView(page, 'explorer');
  await apiOk(page, 'POST', '/api/v1/namespaces', { metadata: { name: namespace } }, 201);
  await openView(page, 'explorer', { kind: 'v1/configmaps', ns: namespace });
  await waitUsable(page);

  // Created while the explorer watches, 8 in flight, as the admin the UI acts as.
  await page.evaluate(
    async ({ namespace, count }) => {
      const listed = (await (await fetch('/sandbox/v1/identities')).json()) as {
        items: { name: string; token?: string }[];
      };
      const token = listed.items.find((i) => i.name === 'admin')?.token ?? '';
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < count) {
            const i = next++;
            const res = await fetch(`/api/v1/namespaces/${namespace}/configmaps`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: `many-${String(i).padStart(5, '0')}` },
                data: { index: String(i) },
              }),
            });
            if (res.status !== 201) throw new Error(`create answered ${res.status}`);
          }
        }),
      );
    },
    { namespace, count: COUNT },
  );

  // The count the server lists (the namespace may also hold a controller-made ConfigMap).
  const listed = await apiOk<{ items: { metadata: { name: string } }[] }>(
    page,
    'GET',
    `/api/v1/namespaces/${namespace}/configmaps`,
  );
  const names = listed.items.map((item) => item.metadata.name).sort();
  const total = names.length;
  expect(total).toBeGreaterThanOrEqual(COUNT);
  const main = page.getByRole('main');
  await expect(main.getByText(`${total.toLocaleString('en')} objects`)).toBeVisible({ timeout: 60_000 });
  const table = main.getByRole('table');
  await expect(table).toHaveAttribute('aria-rowcount', String(total + 1));

  // Only a window of rows is in the DOM.
  const rendered = await table.locator('tbody tr[aria-rowindex]').count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(150);
  await expect(rowOf(page, 'many-00000')).toBeVisible();
  await expect(rowOf(page, 'many-01499')).toHaveCount(0);

  // Scrolling to the end shows the last object, at its place in the whole list.
  await main.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  const last = rowOf(page, 'many-01499');
  await expect(last).toBeVisible();
  await expect(last).toHaveAttribute('aria-rowindex', String(names.indexOf('many-01499') + 2));
  expect(await table.locator('tbody tr[aria-rowindex]').count()).toBeLessThan(150);

  // Still live at the end of a long list: a new object appears where it sorts.
  await createConfigMap(page, 'many-zz-late', {}, namespace);
  await expect(rowOf(page, 'many-zz-late')).toBeVisible();
  await expect(main.getByText(`${(total + 1).toLocaleString('en')} objects`)).toBeVisible();

  // The windowed table, with spacer rows above and below, is still a well-formed table to axe.
  await main.evaluate((element) => element.scrollTo({ top: element.scrollHeight / 2 }));
  await expect(rowOf(page, 'many-00750')).toBeVisible();
  const scan = await new AxeBuilder({ page }).include('table.objects').analyze();
  const serious = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
