/**
 * The Terminal view: kubectl in the browser against the in-browser server.
 * The namespace table, a configmap created and read back with jsonpath, a
 * here-document pasted into `apply -f -`, the Forbidden line for a command
 * run as alice, and the requests fold linking each request to the console
 * and the admission trace — then the same with the network gone. The
 * terminal runs in screen-reader mode, so its text is read from the page.
 */

import { expect, test, type Page } from '@playwright/test';
import { openSandbox, uniqueName, waitForController, waitForOfflineShell } from './support/sandbox';
import { shot } from './support/ui';

// Each step runs a kubectl command through the worker and waits for the screen reader's copy of the text.
test.describe.configure({ timeout: 90_000 });

async function openTerminal(page: Page): Promise<void> {
  await openSandbox(page, '/#/terminal');
  await expect(page.getByTestId('terminal').locator('.xterm')).toBeVisible();
  await expect(terminalText(page)).toContainText('Type "help"');
}

/** The terminal's text as screen readers get it. */
function terminalText(page: Page) {
  return page.getByTestId('terminal').locator('.xterm-accessibility-tree');
}

/** Pastes text into the terminal, as a user pasting a command or a whole script. */
async function paste(page: Page, text: string): Promise<void> {
  await page.getByTestId('terminal').locator('.xterm-helper-textarea').focus();
  // A paste event with the text on the clipboard, as the browser fires it (the spec runs without DOM types).
  await page.evaluate(`(() => {
    const area = document.querySelector('[data-testid="terminal"] .xterm-helper-textarea');
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(text)});
    area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  })()`);
}

async function run(page: Page, line: string): Promise<void> {
  await paste(page, `${line}\n`);
}

test('kubectl in the terminal: tables, create, jsonpath, a heredoc and a refused command', async ({
  page,
}, testInfo) => {
  await openTerminal(page);
  const name = uniqueName('term');
  // Typed keys reach the prompt too (the history and Tab completion read them).
  await page.getByTestId('terminal').locator('.xterm-helper-textarea').focus();
  await page.keyboard.type('help');
  await page.keyboard.press('Enter');
  await expect(terminalText(page)).toContainText('Contexts are the sandbox identities');
  await run(page, 'kubectl get ns');
  await expect(terminalText(page)).toContainText(/NAME\s+AGE/);
  await expect(terminalText(page)).toContainText('default');

  await run(page, `kubectl create configmap ${name} --from-literal=answer=42`);
  await expect(terminalText(page)).toContainText(`configmap/${name} created`);
  await run(page, `kubectl get configmap ${name} -o jsonpath='{.data.answer}'`);
  // Rows run together in the accessibility tree's text: the command line, then `42` and the next prompt.
  await expect(terminalText(page)).toContainText(`-o jsonpath='{.data.answer}'42$`);

  // A pasted here-document feeds `apply -f -`.
  await paste(
    page,
    `kubectl apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}-doc\ndata:\n  k: v\nEOF\n`,
  );
  await expect(terminalText(page)).toContainText(`configmap/${name}-doc created`);

  await run(page, 'kubectl get secrets -n default --as alice');
  await expect(terminalText(page)).toContainText(
    'Error from server (Forbidden): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"',
  );

  // Each command keeps the requests it sent, linked to the console and, for writes, the admission trace.
  const fold = page.locator('details.terminal-transcript', { hasText: `create configmap ${name}` });
  await fold.locator('summary').click();
  await expect(fold.getByText(/POST \/api\/v1\/namespaces\/default\/configmaps/)).toBeVisible();
  await expect(fold.getByRole('link', { name: 'Console' }).first()).toHaveAttribute(
    'href',
    /#\/console\?method=POST/,
  );
  await expect(fold.getByRole('link', { name: 'Admission trace' })).toHaveAttribute('href', /#\/traces\?id=/);
  await shot(page, testInfo, 'terminal');
});

test('the terminal works offline', async ({ page, context }) => {
  await openSandbox(page);
  await waitForOfflineShell(page);
  await context.setOffline(true);
  await page.goto('/#/terminal');
  await page.reload();
  await waitForController(page);
  await expect(page.getByTestId('terminal').locator('.xterm')).toBeVisible();
  await expect(terminalText(page)).toContainText('Type "help"');
  await page.getByTestId('terminal').locator('.xterm-helper-textarea').focus();
  await page.keyboard.type('ls');
  await page.keyboard.press('Enter');
  const name = uniqueName('offline');
  await run(page, `kubectl create configmap ${name} --from-literal=answer=42`);
  await expect(terminalText(page)).toContainText(`configmap/${name} created`);
  await run(page, `kubectl get cm ${name} -o jsonpath={.data.answer}`);
  await expect(terminalText(page)).toContainText('-o jsonpath={.data.answer}42$');
});
