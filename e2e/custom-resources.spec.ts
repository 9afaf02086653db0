/**
 * Custom resources appear as they are defined: the explorer reads discovery
 * again when a CustomResourceDefinition is created, lists the new kind
 * live, and the editor completes and validates it from the schema the
 * server publishes for it in OpenAPI v3.
 */

import { expect, test } from '@playwright/test';
import { apiOk, uniqueName } from './support/sandbox';
import { createConfigMap, openView, rowOf, setEditorText, waitUsable } from './support/ui';

const crd = {
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer', description: 'How big the widget is' } },
              },
            },
          },
        },
      },
    ],
  },
};

test('a new CRD shows up in the explorer and the editor knows its schema', async ({ page }) => {
  await openView(page, 'explorer');
  await waitUsable(page);
  await createConfigMap(page, uniqueName('before'));
  await apiOk(page, 'POST', '/apis/apiextensions.orch.io/v1/customresourcedefinitions', crd, 201);

  const nav = page.getByRole('navigation', { name: 'API groups, versions and kinds' });
  await nav.getByRole('button', { name: 'Widget', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Widget (example.com/v1)' })).toBeVisible();
  await apiOk(
    page,
    'POST',
    '/apis/example.com/v1/namespaces/default/widgets',
    { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'gadget' }, spec: { size: 3 } },
    201,
  );
  await expect(rowOf(page, 'gadget')).toBeVisible();

  await page.getByRole('link', { name: 'Editor', exact: true }).click();
  await setEditorText(
    page,
    'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: big\n',
  );
  await page.locator('.cm-lintRange-error').hover();
  await expect(page.locator('.cm-tooltip-lint')).toContainText('.spec.size: expected integer, got string');
  await setEditorText(page, 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  si');
  await page.keyboard.press('Control+Space');
  const completions = page.locator('.cm-tooltip-autocomplete');
  await expect(completions.getByText('size', { exact: true })).toBeVisible();
  await expect(completions).toContainText('integer');
});
