/**
 * The Node host's command line as kube-apiserver's: `--help`/`-h` lists every
 * flag of the flag table (src/hosts/node/args.ts) with its type and default,
 * in named sections, and exits 0; an unknown flag prints cobra's plain
 * `Error: unknown flag: --nope` (kube-apiserver silences the usage) and
 * exits 1; a bad `--runtime-config` value fails as the real server's
 * logger reports it (`"command failed" err="invalid value of apps/v1: …"`),
 * exit 1; a group/version with no resources starts with the real warning.
 * The three processes run at once (each start is slow); the rest is checked
 * in-process.
 */

import { spawn } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hostFlags, parseHostArgs } from '../src/hosts/node/args';
import { helpText } from '../src/hosts/node/flag-help';
import { startTestHost } from './support/host';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

let help: Run;
let shortHelp: Run;
let unknown: Run;
let badRuntimeConfig: Run;

beforeAll(async () => {
  [help, shortHelp, unknown, badRuntimeConfig] = await Promise.all([
    run(['--help']),
    run(['--profile=kubernetes', '-h']),
    run(['--nope']),
    run(['--runtime-config=apps/v1=maybe']),
  ]);
}, 120_000);

describe('--help', () => {
  it('prints the help to standard output and exits 0 (also as -h)', () => {
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toBe(helpText(hostFlags));
    expect(shortHelp.code).toBe(0);
    expect(shortHelp.stdout).toBe(help.stdout);
  });

  it('starts as kube-apiserver does: description, Usage, then the sections', () => {
    expect(help.stdout).toContain('\nUsage:\n  kube-apiserver [flags]\n\nGeneric flags:\n\n');
    for (const section of ['Etcd', 'Secure serving', 'Authentication', 'Admission', 'Global'])
      expect(help.stdout).toContain(`\n${section} flags:\n\n`);
  });

  it.each(Object.entries(hostFlags))('lists --%s with its type and default', (name, decl) => {
    const line = help.stdout
      .split('\n')
      .find((l) => l.startsWith(`      --${name} `) || l === `      --${name}`);
    expect(line, `--${name} missing`).toBeDefined();
    if (typeof decl !== 'string' && decl.default !== undefined) expect(line).toContain(`(default `);
    if (typeof decl !== 'string' && decl.type !== undefined) expect(line).toContain(`--${name} ${decl.type}`);
  });

  it('lists every alpha and beta feature gate with its default, as the real --feature-gates usage', () => {
    expect(help.stdout).toContain('WatchList=true|false (ALPHA - default=false)');
    expect(help.stdout).toContain('APIListChunking=true|false (BETA - default=true)');
    expect(help.stdout).toContain('--default-not-ready-toleration-seconds int');
    expect(help.stdout).toMatch(/--default-unreachable-toleration-seconds int +.*\(default 300\)/);
  });
});

describe('refusals at start-up', () => {
  it('an unknown flag: cobra plain error line, no usage, exit 1', () => {
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error: unknown flag: --nope\n');
    expect(unknown.stdout).toBe('');
  });

  it('a bad --runtime-config value: the logged "command failed" line, exit 1', () => {
    expect(badRuntimeConfig.code).toBe(1);
    expect(badRuntimeConfig.stderr).toMatch(
      /^E\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ run\.go:74\] "command failed" err="invalid value of apps\/v1: maybe, err: strconv\.ParseBool: parsing \\"maybe\\": invalid syntax"\n$/,
    );
  });
});

describe('a group/version with no resources', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['batch/v1beta1=true', 'batch/v1beta1'],
    ['autoscaling/v2beta2=true,policy/v1beta1', 'autoscaling/v2beta2'],
  ])('--runtime-config=%s starts and logs Skipping API %s', async (runtimeConfig, gv) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const host = await startTestHost({ runtimeConfig });
    try {
      expect(warn).toHaveBeenCalledWith(`Skipping API ${gv} because it has no resources.`);
      expect((await host.request('GET', '/apis/batch/v1')).status).toBe(200);
      expect((await host.request('GET', `/apis/${gv}`)).status).toBe(404);
    } finally {
      await host.close();
    }
  });
});

describe('--default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds', () => {
  it('feed the DefaultTolerationSeconds admission plugin', async () => {
    const options = parseHostArgs([
      '--default-not-ready-toleration-seconds=60',
      '--default-unreachable-toleration-seconds',
      '120',
    ]);
    const host = await startTestHost(options);
    try {
      const res = await host.request('POST', '/api/v1/namespaces/default/pods', {
        body: { metadata: { name: 'tolerant' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      });
      expect(res.status, res.text).toBe(201);
      const tolerations = (res.body as { spec: { tolerations: Record<string, unknown>[] } }).spec.tolerations;
      expect(tolerations.map((t) => [String(t.key).split('/')[1], t.effect, t.tolerationSeconds])).toEqual([
        ['not-ready', 'NoExecute', 60],
        ['unreachable', 'NoExecute', 120],
      ]);
    } finally {
      await host.close();
    }
  });
});
