/**
 * The request console: any request with its full answer (status, every
 * header including Warning, the body pretty-printed); the request log of
 * everything the UI sent, each entry shown as curl and kubectl for the Node
 * host and reopened in the console.
 */

import { expect, test } from '@playwright/test';
import { uniqueName } from './support/sandbox';
import { openView, shot } from './support/ui';

test('compose a request, read every header, and reuse a logged request', async ({ page }, testInfo) => {
  await openView(page, 'console');
  const name = uniqueName('console');
  const composer = page.getByRole('form', { name: 'Request' });
  await composer.getByLabel('Method').selectOption('POST');
  await composer.getByLabel('Path').fill('/api/v1/namespaces/default/configmaps');
  await composer.getByRole('button', { name: 'Add query parameter' }).click();
  await composer.getByLabel('Query parameters name 1').fill('fieldManager');
  await composer.getByLabel('Query parameters value 1').fill('console');
  await composer
    .getByLabel('Body')
    .fill(
      JSON.stringify(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, colour: 'blue' },
        null,
        2,
      ),
    );
  await composer.getByRole('button', { name: 'Send' }).click();

  const response = page.getByRole('region', { name: 'Response' });
  await expect(response.getByText('201 Created')).toBeVisible();
  const headers = response.getByRole('table', { name: 'Response headers' });
  await expect(headers.getByRole('row', { name: /^warning/i })).toContainText(
    '299 - "unknown field \\"colour\\""',
  );
  await expect(response.getByRole('note', { name: 'Warnings from the server' })).toContainText(
    'unknown field "colour"',
  );
  await expect(headers.getByRole('row', { name: /^content-type/i })).toContainText('application/json');
  await expect(response.getByLabel('Response body')).toContainText(`"name": "${name}"`);
  await shot(page, testInfo, 'console');

  // The request log holds the UI's own requests, the explorer's watches among them, and this one.
  const log = page.getByRole('region', { name: 'Request log' });
  await log.getByPlaceholder('Filter: method, path or status…').fill('POST');
  await log
    .getByRole('button', { name: /POST \/api\/v1\/namespaces\/default\/configmaps\?fieldManager=console/ })
    .click();
  const detail = page.getByRole('region', { name: 'Logged request' });
  await expect(detail.getByLabel('curl')).toContainText(
    "curl -sS -X POST 'http://127.0.0.1:6443/api/v1/namespaces/default/configmaps?fieldManager=console'",
  );
  await expect(detail.getByLabel('curl')).toContainText('--data-binary @-');
  await expect(detail.getByLabel('kubectl')).toContainText(
    "kubectl --kubeconfig ./orch.kubeconfig create --raw '/api/v1/namespaces/default/configmaps?fieldManager=console' -f -",
  );
  await log.getByPlaceholder('Filter: method, path or status…').fill('watch');
  await expect(log.getByRole('button', { name: /GET .*watch=true/ }).first()).toBeVisible();

  // Reopen a GET from the log and send it again.
  await log.getByPlaceholder('Filter: method, path or status…').fill('GET /version');
  await log
    .getByRole('button', { name: /GET \/version/ })
    .first()
    .click();
  await detail.getByRole('button', { name: 'Open in console' }).click();
  await expect(composer.getByLabel('Path')).toHaveValue('/version');
  await expect(composer.getByLabel('Method')).toHaveValue('GET');
  await composer.getByRole('button', { name: 'Send' }).click();
  await expect(response.getByText('200 OK')).toBeVisible();
  await expect(response.getByLabel('Response body')).toContainText('"gitVersion"');
});
