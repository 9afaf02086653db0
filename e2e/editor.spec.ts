/**
 * The editor: CodeMirror with completion from the server's OpenAPI schema
 * and inline validation (an unknown field warns, a number where a string
 * belongs is an error); every write previewed as a server-side dry run
 * diffed against what is stored, then confirmed.
 */

import { expect, test } from '@playwright/test';
import { apiOk, uniqueName } from './support/sandbox';
import { openView, setEditorText, shot } from './support/ui';

test('completion, validation, and create then apply through a dry-run diff', async ({ page }, testInfo) => {
  await openView(page, 'editor');
  const name = uniqueName('edited');
  await expect(page.locator('.cm-content')).toBeVisible();

  // Completion: the fields ObjectMeta allows, from /openapi/v3.
  await setEditorText(page, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  lab`);
  await page.keyboard.press('Control+Space');
  const completions = page.locator('.cm-tooltip-autocomplete');
  await expect(completions.getByText('labels', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  // Validation: an unknown field and a number where the schema wants a string.
  await setEditorText(
    page,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nbogus: 1\ndata:\n  count: 3\n`,
  );
  await expect(page.locator('.cm-lintRange-warning')).toHaveCount(1);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await page.locator('.cm-lintRange-warning').hover();
  await expect(page.locator('.cm-tooltip-lint')).toContainText('unknown field "bogus"');
  await page.locator('.cm-lintRange-error').hover();
  await expect(page.locator('.cm-tooltip-lint')).toContainText('expected string, got integer');

  // Create: the preview shows nothing stored and what the server would store.
  await setEditorText(
    page,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  color: blue\n`,
  );
  await page.getByRole('button', { name: 'Create…' }).click();
  const preview = page.getByRole('region', { name: 'Dry run preview' });
  await expect(preview.getByText('Stored now: nothing')).toBeVisible();
  await expect(
    preview.getByText(/POST \/api\/v1\/namespaces\/default\/configmaps\?.*dryRun=All/),
  ).toBeVisible();
  await expect(preview.locator('.cm-mergeView')).toContainText('color: blue');
  await preview.getByRole('button', { name: 'Confirm create' }).click();
  await expect(page.getByText(`Created ConfigMap default/${name}`)).toBeVisible();

  // Update: the diff marks the changed line against the stored object.
  await setEditorText(
    page,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  color: green\n`,
  );
  await page.getByRole('button', { name: 'Update…' }).click();
  await expect(preview.getByText(/Stored now \(resourceVersion \d+\)/)).toBeVisible();
  await expect(preview.locator('.cm-changedLine').first()).toBeVisible();
  await expect(preview.locator('.cm-mergeView')).toContainText('color: green');
  await shot(page, testInfo, 'editor-diff');
  await preview.getByRole('button', { name: 'Confirm update' }).click();
  await expect(page.getByText(`Updated ConfigMap default/${name}`)).toBeVisible();
  const stored = await apiOk<{ data: Record<string, string> }>(
    page,
    'GET',
    `/api/v1/namespaces/default/configmaps/${name}`,
  );
  expect(stored.data).toEqual({ color: 'green' });

  // Apply creates a second object, owned by the editor's field manager.
  const applied = uniqueName('applied');
  await setEditorText(
    page,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${applied}\n  namespace: default\ndata:\n  size: large\n`,
  );
  await page.getByRole('button', { name: 'Apply…' }).click();
  await expect(preview.getByText(/PATCH .*fieldManager=sandbox-editor.*dryRun=All/)).toBeVisible();
  await preview.getByRole('button', { name: 'Confirm apply' }).click();
  await expect(page.getByText(`Applied ConfigMap default/${applied}`)).toBeVisible();
  const owned = await apiOk<{ metadata: { managedFields: { manager: string; operation: string }[] } }>(
    page,
    'GET',
    `/api/v1/namespaces/default/configmaps/${applied}`,
  );
  expect(owned.metadata.managedFields).toEqual([
    expect.objectContaining({ manager: 'sandbox-editor', operation: 'Apply' }),
  ]);
});
