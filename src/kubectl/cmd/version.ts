/**
 * `kubectl version`: the client's version (kubectl v1.27.16, whose output
 * this kubectl reproduces), the Kustomize version it embeds, and the
 * server's `/version`; the v1.27 deprecation warning for the default
 * form, `--short`, `--client`, and `-o json|yaml` (JSON in struct order
 * with two-space indentation, as kubectl marshals it).
 */

import type { Command } from '../command';
import { KubectlError } from '../errors';
import { clientVersion } from '../factory';
import { goJson } from '../printers/json';
import { toYaml } from '../printers/yaml';

const versionKeys = [
  'major',
  'minor',
  'gitVersion',
  'gitCommit',
  'gitTreeState',
  'buildDate',
  'goVersion',
  'compiler',
  'platform',
] as const;
const goNames: Record<(typeof versionKeys)[number], string> = {
  major: 'Major',
  minor: 'Minor',
  gitVersion: 'GitVersion',
  gitCommit: 'GitCommit',
  gitTreeState: 'GitTreeState',
  buildDate: 'BuildDate',
  goVersion: 'GoVersion',
  compiler: 'Compiler',
  platform: 'Platform',
};

type VersionInfo = Record<(typeof versionKeys)[number], string>;

function ordered(info: Record<string, unknown>): VersionInfo {
  const out = {} as VersionInfo;
  for (const k of versionKeys) out[k] = String(info[k] ?? '');
  return out;
}

function goStruct(info: VersionInfo): string {
  return `version.Info{${versionKeys.map((k) => `${goNames[k]}:${JSON.stringify(info[k])}`).join(', ')}}`;
}

export const versionCommand: Command = {
  name: 'version',
  short: 'Print the client and server version information',
  flags: [
    { name: 'client', type: 'bool', noOptDefVal: 'true' },
    { name: 'short', type: 'bool', noOptDefVal: 'true' },
    { name: 'output', shorthand: 'o', type: 'string' },
  ],
  async run(ctx) {
    const output = ctx.flags.string('output');
    if (output !== '' && output !== 'json' && output !== 'yaml')
      throw new KubectlError(`error: --output must be 'yaml' or 'json'`);
    const short = ctx.flags.bool('short');
    if (ctx.flags.changed.has('short'))
      ctx.err(
        'Flag --short has been deprecated, and will be removed in the future. The --short output will become the default.\n',
      );
    const client = ordered(clientVersion);
    let server: VersionInfo | undefined;
    let serverError: unknown;
    if (!ctx.flags.bool('client')) {
      try {
        const c = await ctx.f.client();
        server = ordered((await c.send<Record<string, unknown>>('GET', '/version')).body);
      } catch (error) {
        serverError = error;
      }
    }
    const doc: Record<string, unknown> = { clientVersion: client, kustomizeVersion: 'v5.0.1' };
    if (server !== undefined) doc['serverVersion'] = server;
    if (output === 'json') ctx.out(goJson(doc, { indent: '  ', sortKeys: false }) + '\n');
    else if (output === 'yaml') ctx.out(toYaml(doc) + '\n');
    else {
      if (!short)
        ctx.err(
          'WARNING: This version information is deprecated and will be replaced with the output from kubectl version --short.  Use --output=yaml|json to get the full version.\n',
        );
      ctx.out(`Client Version: ${short ? client.gitVersion : goStruct(client)}\n`);
      ctx.out('Kustomize Version: v5.0.1\n');
      if (server !== undefined) ctx.out(`Server Version: ${short ? server.gitVersion : goStruct(server)}\n`);
    }
    if (serverError !== undefined) throw serverError;
    return 0;
  },
};
