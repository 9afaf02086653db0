/**
 * The differential kubectl harness: runs a scenario's steps on a fresh Node
 * host with one kubectl (the real v1.27 binary, or ours in-process through
 * the Node front end), from a working folder holding the scenario's files
 * and with a private copy of the host's kubeconfig, and normalises what
 * each step printed so that two runs on two fresh hosts compare equal when
 * the clients behave alike: uids, timestamps, ages, resourceVersions, the
 * host's port, tokens, cluster IPs and diff's temporary folders are
 * replaced by placeholders. Table columns are re-aligned by collapsing runs
 * of spaces between cells (an age one character wider moves the columns
 * after it), never the indentation at the start of a line.
 */

import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { runNodeKubectl } from '../../src/hosts/node/kubectl/run';
import { startTestHost } from '../support/host';
import type { Scenario, Step } from './steps';

export interface StepOutput {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunContext {
  cwd: string;
  kubeconfig: string;
  home: string;
}

export type Runner = (step: Step, context: RunContext) => Promise<Omit<StepOutput, 'args'>>;

/** The real kubectl v1.27: `kubectl.1.27` on PATH or beside the Google Cloud SDK's dispatcher. */
export function findRealKubectl(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/lib/google-cloud-sdk/bin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    const candidate = join(dir, 'kubectl.1.27');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function realRunner(binary: string): Runner {
  return (step, context) =>
    new Promise((resolve) => {
      const child = execFile(
        binary,
        step.args,
        {
          cwd: context.cwd,
          timeout: 60_000,
          maxBuffer: 64 << 20,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: context.home,
            KUBECONFIG: context.kubeconfig,
            KUBECACHEDIR: join(context.home, '.kube', 'cache'),
          },
        },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
          resolve({ code, stdout, stderr });
        },
      );
      child.stdin?.end(step.stdin ?? '');
    });
}

/**
 * Ours, in-process: the same entry point `npm run kubectl` uses, with captured streams. Cut off after a
 * minute, as the real kubectl's process is: a step that waits forever fails, named, instead of the file.
 */
export const ourRunner: Runner = async (step, context) => {
  let stdout = '';
  let stderr = '';
  const code = await runNodeKubectl(step.args, {
    cwd: context.cwd,
    env: { HOME: context.home, KUBECONFIG: context.kubeconfig },
    stdin: async () => step.stdin ?? '',
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    signal: AbortSignal.timeout(stepTimeoutMs),
  });
  return { code, stdout, stderr };
};

/** How long one kubectl run may take (the real kubectl's process is killed then). */
const stepTimeoutMs = 60_000;

/**
 * Runs `work`, saying on stderr which part of which scenario it is while it takes longer than the step's
 * time (a host's start or close, a step that does not end when its kubectl is cut off): a run that waits
 * names what it waits for.
 */
async function named<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const report = setInterval(
    () =>
      console.error(
        `kubectl-diff: ${what}: still running after ${Math.round((Date.now() - started) / 1000)} s`,
      ),
    stepTimeoutMs,
  );
  try {
    return await work();
  } finally {
    clearInterval(report);
  }
}

/** Runs every step of a scenario on a fresh host of its profile, returning the normalised outputs. */
export async function runScenario(scenario: Scenario, runner: Runner): Promise<StepOutput[]> {
  const who = runner === ourRunner ? 'ours' : 'kubectl';
  const host = await named(`${scenario.name} (${who}): the host's start`, () =>
    startTestHost({ profile: scenario.profile }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-diff-'));
  try {
    const cwd = join(dir, 'work');
    const home = join(dir, 'home');
    mkdirSync(cwd, { recursive: true });
    mkdirSync(join(home, '.kube'), { recursive: true });
    for (const [path, content] of Object.entries(scenario.files ?? {})) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), content);
    }
    const kubeconfig = join(home, '.kube', 'config');
    copyFileSync(host.kubeconfigPath, kubeconfig);
    const port = new URL(host.url).port;
    const outputs: StepOutput[] = [];
    for (const [index, step] of scenario.steps.entries()) {
      if (process.env['KDIFF_DEBUG']) console.error(`step: ${step.args.join(' ')}`);
      const run = () =>
        named(`${scenario.name}#${index} (${who}) kubectl ${step.args.join(' ')}`, () =>
          runner(step, { cwd, kubeconfig, home }),
        );
      let out = await run();
      for (let tries = 0; step.settle === true && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        const again = await run();
        const same =
          again.code === out.code &&
          normalise(again.stdout, port) === normalise(out.stdout, port) &&
          normalise(again.stderr, port) === normalise(out.stderr, port);
        out = again;
        if (same) break;
      }
      outputs.push({
        args: step.args,
        code: out.code,
        stdout: normalise(out.stdout, port),
        stderr: normalise(out.stderr, port),
      });
    }
    return outputs;
  } finally {
    await named(`${scenario.name} (${who}): the host's close`, () => host.close());
    rmSync(dir, { recursive: true, force: true });
  }
}

const replacements: [RegExp, string][] = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<time>'],
  [/[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}/g, '<time>'],
  [/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [+-]\d{4}/g, '<time>'],
  [/("?resourceVersion"?:\s*)"\d+"/g, '$1"<rv>"'],
  [/(resourceVersion=)\d+/g, '$1<rv>'],
  [/(Resource Version:\s+)\d+/g, '$1<rv>'],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  [/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>'],
  [/\b10\.0\.0\.\d+\b/g, '<ip>'],
  [/\b3[0-2]\d{3}\/TCP\b/g, '<nodeport>/TCP'],
  [/-api-access-[a-z0-9]{5}\b/g, '-api-access-<suffix>'],
  // Names a controller generated (a ReplicaSet's or Job's pods): five characters of the
  // server's random alphabet, which has no vowels, after the owner's name.
  [/(?<=[a-z0-9]-)[bcdfghjklmnpqrstvwxz2456789]{5}(?![\w-])/g, '<suffix>'],
  [/\/tmp\/(LIVE|MERGED)-\d+/g, '/tmp/$1-<n>'],
  [/(?<=\s|^)(<invalid>|\d+(y|d|h|m|s)(\d+(d|h|m|s))?)(?=\s|$)/gm, '<age>'],
];

/**
 * kubectl's Secret and ConfigMap describers range over a Go map, whose order changes from run to run: a
 * `Data` section (up to `BinaryData`, `Events:` or the end) is compared as a set of entries. A ConfigMap's
 * entries are blocks (`key:`, `----`, the value) apart by blank lines, compared whole; a Secret's are lines
 * (`key:  N bytes`), compared as a set.
 */
function unorderedDataSections(text: string): string {
  return text.replace(
    /(\nData\n====\n)([\s\S]*?)(\n*)(?=\nBinaryData\n|\nEvents:|$)/g,
    (_m, head: string, body: string, gap: string) =>
      head +
      body
        .split('\n\n')
        .map((block) =>
          /^\S[^\n]*:\s+\d+ bytes(\n|$)/.test(block) ? block.split('\n').sort().join('\n') : block,
        )
        .sort()
        .join('\n\n') +
      gap,
  );
}

export function normalise(text: string, port?: string): string {
  // The host's port also shows as the `kubernetes` Service's target port.
  let out = port === undefined ? text : text.replace(new RegExp(`\\b${port}\\b`, 'g'), '<port>');
  for (const [pattern, replacement] of replacements) out = out.replace(pattern, replacement);
  out = unorderedDataSections(out);
  // Cells are separated by at least three spaces after the age placeholder; indentation stays.
  return out
    .split('\n')
    .map((line) => line.replace(/(?<=\S) {2,}(?=\S)/g, '   ').replace(/(?<=\S) +$/, ''))
    .join('\n');
}
