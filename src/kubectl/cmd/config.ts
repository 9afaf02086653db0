/**
 * `kubectl config`: the kubeconfig's contexts (`get-contexts`,
 * `current-context`, `use-context`, `set-context`, `delete-context`,
 * `rename-context`), clusters and users (`get-clusters`, `get-users`) and
 * the whole file (`view`, redacted unless `--raw`, `--minify` to the
 * current context). In the Terminal the contexts are the sandbox
 * identities and `use-context` switches the tab's identity.
 */

import type { Command, CommandContext } from '../command';
import type { KubeConfig } from '../config/kubeconfig';
import { KubectlError, usageError } from '../errors';
import { goJson } from '../printers/json';
import { makePrinter } from '../printers/output';
import { tabwrite } from '../printers/tabwriter';
import { toYaml } from '../printers/yaml';

async function load(ctx: CommandContext): Promise<KubeConfig> {
  return ctx.io.kubeconfig.load(ctx.flags.string('kubeconfig'));
}

async function save(ctx: CommandContext, config: KubeConfig): Promise<void> {
  await ctx.io.kubeconfig.save(ctx.flags.string('kubeconfig'), config);
}

const getContexts: Command = {
  name: 'get-contexts',
  short: 'Describe one or many contexts',
  flags: [
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'no-headers', type: 'bool', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const config = await load(ctx);
    const output = ctx.flags.string('output');
    if (output !== '' && output !== 'name')
      throw new KubectlError(`error: output must be one of '' or 'name': ${output}`);
    let contexts = [...config.contexts].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const missing: string[] = [];
    if (ctx.args.length > 0) {
      for (const name of ctx.args) if (!contexts.some((c) => c.name === name)) missing.push(name);
      contexts = contexts.filter((c) => ctx.args.includes(c.name));
    }
    if (output === 'name') ctx.out(contexts.map((c) => `${c.name}\n`).join(''));
    else {
      let text = ctx.flags.bool('no-headers') ? '' : 'CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n';
      const current = ctx.flags.string('context') || config['current-context'];
      for (const c of contexts)
        text += `${c.name === current ? '*' : ''}\t${c.name}\t${c.context.cluster}\t${c.context.user}\t${c.context.namespace ?? ''}\n`;
      ctx.out(tabwrite(text));
    }
    if (missing.length > 0) throw new KubectlError(`error: context ${missing[0]} not found`);
    return 0;
  },
};

const currentContext: Command = {
  name: 'current-context',
  short: 'Display the current-context',
  async run(ctx) {
    const config = await load(ctx);
    if (config['current-context'] === '') throw new KubectlError('error: current-context is not set');
    ctx.out(`${config['current-context']}\n`);
    return 0;
  },
};

const useContext: Command = {
  name: 'use-context',
  aliases: ['use'],
  short: 'Set the current-context in a kubeconfig file',
  async run(ctx) {
    if (ctx.args.length !== 1) throw usageError(ctx.path, 'Unexpected args: ' + JSON.stringify(ctx.args));
    const name = ctx.args[0] as string;
    const config = await load(ctx);
    if (!config.contexts.some((c) => c.name === name))
      throw new KubectlError(`error: no context exists with the name: "${name}"`);
    config['current-context'] = name;
    await save(ctx, config);
    ctx.out(`Switched to context "${name}".\n`);
    return 0;
  },
};

const setContext: Command = {
  name: 'set-context',
  short: 'Set a context entry in kubeconfig',
  flags: [{ name: 'current', type: 'bool', noOptDefVal: 'true' }],
  async run(ctx) {
    const config = await load(ctx);
    const current = ctx.flags.bool('current');
    if (current && ctx.args.length > 0)
      throw usageError(ctx.path, 'you cannot specify both a context name and --current');
    const name = current ? config['current-context'] : ctx.args[0];
    if (name === undefined || name === '') {
      if (current) throw new KubectlError('error: no current context is set');
      throw usageError(ctx.path, 'you must specify a non-empty context name or --current');
    }
    let entry = config.contexts.find((c) => c.name === name);
    const exists = entry !== undefined;
    if (entry === undefined) {
      entry = { name, context: { cluster: '', user: '' } };
      config.contexts.push(entry);
    }
    if (ctx.flags.changed.has('cluster')) entry.context.cluster = ctx.flags.string('cluster');
    if (ctx.flags.changed.has('user')) entry.context.user = ctx.flags.string('user');
    if (ctx.flags.changed.has('namespace')) entry.context.namespace = ctx.flags.string('namespace');
    await save(ctx, config);
    ctx.out(`Context "${name}" ${exists ? 'modified' : 'created'}.\n`);
    return 0;
  },
};

const deleteContext: Command = {
  name: 'delete-context',
  short: 'Delete the specified context from the kubeconfig',
  async run(ctx) {
    const name = ctx.args[0];
    if (name === undefined) throw usageError(ctx.path, 'Unexpected args: []');
    const config = await load(ctx);
    if (!config.contexts.some((c) => c.name === name))
      throw new KubectlError(
        `error: cannot delete context ${name}, not in ${ctx.io.kubeconfig.describe(ctx.flags.string('kubeconfig'))}`,
      );
    if (config['current-context'] === name)
      ctx.err(
        'warning: this removed your active context, use "kubectl config use-context" to select a different one\n',
      );
    config.contexts = config.contexts.filter((c) => c.name !== name);
    await save(ctx, config);
    ctx.out(`deleted context ${name} from ${ctx.io.kubeconfig.describe(ctx.flags.string('kubeconfig'))}\n`);
    return 0;
  },
};

const renameContext: Command = {
  name: 'rename-context',
  short: 'Rename a context from the kubeconfig file',
  async run(ctx) {
    const [from, to] = ctx.args;
    if (from === undefined || to === undefined)
      throw usageError(ctx.path, 'Unexpected args: ' + JSON.stringify(ctx.args));
    const config = await load(ctx);
    const entry = config.contexts.find((c) => c.name === from);
    if (entry === undefined)
      throw new KubectlError(
        `error: cannot rename the context "${from}", it's not in ${ctx.io.kubeconfig.describe(ctx.flags.string('kubeconfig'))}`,
      );
    if (config.contexts.some((c) => c.name === to))
      throw new KubectlError(
        `error: cannot rename the context "${from}", the context "${to}" already exists in ${ctx.io.kubeconfig.describe(ctx.flags.string('kubeconfig'))}`,
      );
    entry.name = to;
    if (config['current-context'] === from) config['current-context'] = to;
    await save(ctx, config);
    ctx.out(`Context "${from}" renamed to "${to}".\n`);
    return 0;
  },
};

const getClusters: Command = {
  name: 'get-clusters',
  short: 'Display clusters defined in the kubeconfig',
  async run(ctx) {
    const config = await load(ctx);
    ctx.out(['NAME', ...config.clusters.map((c) => c.name)].map((l) => `${l}\n`).join(''));
    return 0;
  },
};

const getUsers: Command = {
  name: 'get-users',
  short: 'Display users defined in the kubeconfig',
  async run(ctx) {
    const config = await load(ctx);
    ctx.out(['NAME', ...config.users.map((u) => u.name)].map((l) => `${l}\n`).join(''));
    return 0;
  },
};

const clusterKeys = [
  'server',
  'tls-server-name',
  'insecure-skip-tls-verify',
  'certificate-authority',
  'certificate-authority-data',
  'proxy-url',
  'disable-compression',
];
const userKeys = [
  'client-certificate',
  'client-certificate-data',
  'client-key',
  'client-key-data',
  'token',
  'tokenFile',
  'as',
  'as-uid',
  'as-groups',
  'username',
  'password',
  'auth-provider',
  'exec',
];

function orderedPick(
  source: Record<string, unknown>,
  keys: string[],
  redact: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = source[k];
    if (v === undefined || v === '' || v === false) continue;
    if (redact && k.endsWith('-data')) out[k] = 'DATA+OMITTED';
    else if (redact && (k === 'token' || k === 'password')) out[k] = 'REDACTED';
    else out[k] = v;
  }
  return out;
}

const view: Command = {
  name: 'view',
  short: 'Display merged kubeconfig settings or a specified kubeconfig file',
  flags: [
    { name: 'output', shorthand: 'o', type: 'string', default: 'yaml' },
    { name: 'raw', type: 'bool', noOptDefVal: 'true' },
    { name: 'minify', type: 'bool', noOptDefVal: 'true' },
    { name: 'flatten', type: 'bool', noOptDefVal: 'true' },
    { name: 'merge', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'template', type: 'string' },
    { name: 'allow-missing-template-keys', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'show-managed-fields', type: 'bool', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const config = await load(ctx);
    const redact = !ctx.flags.bool('raw');
    let clusters = config.clusters;
    let users = config.users;
    let contexts = config.contexts;
    const current = ctx.flags.string('context') || config['current-context'];
    if (ctx.flags.bool('minify')) {
      const c = contexts.find((x) => x.name === current);
      if (c === undefined)
        throw new KubectlError(
          current === ''
            ? 'error: current-context must exist in order to minify'
            : `error: cannot locate context ${current}`,
        );
      contexts = [c];
      clusters = clusters.filter((x) => x.name === c.context.cluster);
      users = users.filter((x) => x.name === c.context.user);
    }
    const doc = {
      kind: 'Config',
      apiVersion: 'v1',
      preferences: config.preferences ?? {},
      clusters: clusters.map((c) => ({
        name: c.name,
        cluster: orderedPick(c.cluster as Record<string, unknown>, clusterKeys, redact),
      })),
      users: users.map((u) => ({
        name: u.name,
        user: orderedPick(u.user as Record<string, unknown>, userKeys, redact),
      })),
      contexts: contexts.map((c) => ({
        name: c.name,
        context: {
          cluster: c.context.cluster,
          user: c.context.user,
          ...(c.context.namespace ? { namespace: c.context.namespace } : {}),
        },
      })),
      'current-context': ctx.flags.bool('minify') ? current : config['current-context'],
    };
    const output = ctx.flags.string('output');
    if (output === 'yaml')
      ctx.out(
        toYaml({
          ...doc,
          clusters: doc.clusters.length ? doc.clusters : null,
          users: doc.users.length ? doc.users : null,
          contexts: doc.contexts.length ? doc.contexts : null,
        }),
      );
    else if (output === 'json') ctx.out(goJson(doc, { indent: '    ', sortKeys: false }) + '\n');
    else ctx.out((await makePrinter(output, { io: ctx.io })).print(doc as never));
    return 0;
  },
};

export const configCommand: Command = {
  name: 'config',
  short: 'Modify kubeconfig files',
  subcommands: [
    currentContext,
    deleteContext,
    getClusters,
    getContexts,
    getUsers,
    renameContext,
    setContext,
    useContext,
    view,
  ],
};
