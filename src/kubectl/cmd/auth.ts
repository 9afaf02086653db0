/**
 * `kubectl auth can-i` (a SelfSubjectAccessReview, or with `--list` a
 * SelfSubjectRulesReview) and `kubectl auth whoami` (a
 * SelfSubjectReview). Like kubectl's typed clients these post to the
 * upstream group names (`authorization.k8s.io`, `authentication.k8s.io`).
 */

import type { KubeObject } from '../../api/meta';
import { ApiError } from '../../client';
import type { Command } from '../command';
import { KubectlError, usageError } from '../errors';
import { makePrinter } from '../printers/output';
import { tabwrite } from '../printers/tabwriter';

const knownVerbs = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'use',
  'bind',
  'impersonate',
  'escalate',
  'approve',
  'sign',
  '*',
  'proxy',
];
const nonStandardResources = new Set(['users', 'groups', 'userextras', 'uids', 'signers']);

const canI: Command = {
  name: 'can-i',
  short: 'Check whether an action is allowed',
  flags: [
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', noOptDefVal: 'true' },
    { name: 'list', type: 'bool', noOptDefVal: 'true' },
    { name: 'no-headers', type: 'bool', noOptDefVal: 'true' },
    { name: 'quiet', shorthand: 'q', type: 'bool', noOptDefVal: 'true' },
    { name: 'subresource', type: 'string' },
  ],
  async run(ctx) {
    const f = ctx.flags;
    const { namespace } = await ctx.f.namespace();
    const client = await ctx.f.client();
    if (f.bool('list')) {
      const review = {
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: { namespace },
        status: { resourceRules: null, nonResourceRules: null, incomplete: false },
      };
      const r = await client.send<{
        status?: {
          resourceRules?: Rule[];
          nonResourceRules?: Rule[];
          incomplete?: boolean;
          evaluationError?: string;
        };
      }>('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { body: review });
      const status = r.body.status ?? {};
      if (status.incomplete)
        ctx.err(`warning: the list may be incomplete: ${status.evaluationError ?? ''}\n`);
      const rows: string[][] = [];
      for (const rule of status.resourceRules ?? []) {
        const groups = rule.apiGroups ?? [''];
        for (const res of rule.resources ?? [])
          for (const g of groups)
            rows.push([
              g === '' ? res : `${res}.${g}`,
              '[]',
              `[${(rule.resourceNames ?? []).join(' ')}]`,
              `[${(rule.verbs ?? []).join(' ')}]`,
            ]);
      }
      for (const rule of status.nonResourceRules ?? [])
        for (const url of rule.nonResourceURLs ?? [])
          rows.push(['', `[${url}]`, '[]', `[${(rule.verbs ?? []).join(' ')}]`]);
      rows.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : 1));
      let text = f.bool('no-headers') ? '' : 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n';
      for (const row of rows) text += row.join('\t') + '\n';
      ctx.out(tabwrite(text, { minWidth: 0, padding: 2 }));
      return 0;
    }
    if (ctx.args.length === 0)
      throw usageError(
        ctx.path,
        'you must specify two arguments: verb resource or verb resource/resourceName.',
      );
    const verb = ctx.args[0] as string;
    if (!knownVerbs.includes(verb)) ctx.err(`Warning: verb '${verb}' is not a known verb\n`);
    const spec: Record<string, unknown> = {};
    if (ctx.args.length === 1)
      throw usageError(
        ctx.path,
        'you must specify two arguments: verb resource or verb resource/resourceName.',
      );
    if (ctx.args.length > 2)
      throw usageError(
        ctx.path,
        `too many arguments, expected: verb resource or verb resource/resourceName: ${JSON.stringify(ctx.args)}`,
      );
    const target = ctx.args[1] as string;
    if (target.startsWith('/')) spec['nonResourceAttributes'] = { path: target, verb };
    else {
      const slash = target.indexOf('/');
      const resourceArg = slash < 0 ? target : target.slice(0, slash);
      const name = slash < 0 ? '' : target.slice(slash + 1);
      let group = '';
      let resource = resourceArg;
      if (resourceArg !== '*') {
        const mapper = await ctx.f.mapper();
        try {
          const m = mapper.mappingFor(resourceArg.toLowerCase());
          group = m.group;
          resource = m.resource;
        } catch {
          const dot = resourceArg.indexOf('.');
          const res = dot < 0 ? resourceArg : resourceArg.slice(0, dot);
          const grp = dot < 0 ? '' : resourceArg.slice(dot + 1);
          if (!nonStandardResources.has(resourceArg))
            ctx.err(
              grp === ''
                ? `Warning: the server doesn't have a resource type '${res}'\n`
                : `Warning: the server doesn't have a resource type '${res}' in group '${grp}'\n`,
            );
          resource = resourceArg;
        }
      }
      const attrs: Record<string, unknown> = {};
      attrs['namespace'] = f.bool('all-namespaces') ? undefined : namespace;
      attrs['verb'] = verb;
      attrs['group'] = group;
      attrs['resource'] = resource;
      if (f.string('subresource') !== '') attrs['subresource'] = f.string('subresource');
      if (name !== '') attrs['name'] = name;
      spec['resourceAttributes'] = attrs;
    }
    const review = {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec,
      status: { allowed: false },
    };
    const r = await client.send<{
      status?: { allowed?: boolean; reason?: string; evaluationError?: string };
    }>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { body: review });
    const status = r.body.status ?? {};
    if (f.bool('quiet')) return status.allowed ? 0 : 1;
    if (status.allowed) ctx.out('yes\n');
    else {
      let text = 'no';
      if (status.reason) text += ` - ${status.reason}`;
      if (status.evaluationError) text += ` - ${status.evaluationError}`;
      ctx.out(`${text}\n`);
    }
    return status.allowed ? 0 : 1;
  },
};

interface Rule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const whoami: Command = {
  name: 'whoami',
  short: 'Experimental: Check self subject attributes',
  flags: [
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'allow-missing-template-keys', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'template', type: 'string' },
    { name: 'show-managed-fields', type: 'bool', noOptDefVal: 'true' },
  ],
  async run(ctx) {
    const client = await ctx.f.client();
    let review:
      | (KubeObject & {
          status?: {
            userInfo?: {
              username?: string;
              uid?: string;
              groups?: string[];
              extra?: Record<string, string[]>;
            };
          };
        })
      | undefined;
    for (const version of ['v1alpha1', 'v1beta1']) {
      try {
        review = (
          await client.send<NonNullable<typeof review>>(
            'POST',
            `/apis/authentication.k8s.io/${version}/selfsubjectreviews`,
            {
              body: {
                kind: 'SelfSubjectReview',
                apiVersion: `authentication.k8s.io/${version}`,
                metadata: { creationTimestamp: null },
                status: { userInfo: {} },
              },
            },
          )
        ).body;
        break;
      } catch (error) {
        if (!(error instanceof ApiError && error.reason === 'NotFound')) throw error;
      }
    }
    if (review === undefined)
      throw new KubectlError(
        'error: the selfsubjectreviews API is not enabled in the cluster\nenable APISelfSubjectReview feature gate and authentication.k8s.io/v1alpha1 or authentication.k8s.io/v1beta1 API',
      );
    const output = ctx.flags.string('output');
    if (output !== '') {
      ctx.out((await makePrinter(output, { io: ctx.io })).print(review));
      return 0;
    }
    const ui = review.status?.userInfo ?? {};
    let text = 'ATTRIBUTE\tVALUE\n';
    if (ui.username) text += `Username\t${ui.username}\n`;
    if (ui.uid) text += `UID\t${ui.uid}\n`;
    if ((ui.groups ?? []).length > 0) text += `Groups\t[${(ui.groups ?? []).join(' ')}]\n`;
    for (const k of Object.keys(ui.extra ?? {}).sort())
      text += `Extra: ${k}\t[${(ui.extra?.[k] ?? []).join(' ')}]\n`;
    ctx.out(tabwrite(text));
    return 0;
  },
};

export const authCommand: Command = {
  name: 'auth',
  short: 'Inspect authorization',
  subcommands: [canI, whoami],
};
