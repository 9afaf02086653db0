/**
 * `kubectl certificate approve|deny NAME…`: adds the Approved or Denied
 * condition kubectl writes (reason KubectlApprove/KubectlDeny) through the
 * CSR's approval subresource. Like kubectl, it handles only
 * `certificates.k8s.io` objects.
 */

import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client';
import type { Command, CommandContext } from '../command';
import { AggregateError, KubectlError, usageError } from '../errors';
import { filenameFlags, infosFromArgs, infosFromFiles } from '../resource/builder';
import { objectPath, resolveObjects } from '../resource/visit';
import { makePrinter } from '../printers/output';

function modify(which: 'approve' | 'deny'): Command {
  const type = which === 'approve' ? 'Approved' : 'Denied';
  return {
    name: which,
    short:
      which === 'approve' ? 'Approve a certificate signing request' : 'Deny a certificate signing request',
    flags: [
      ...filenameFlags,
      { name: 'force', type: 'bool', noOptDefVal: 'true' },
      { name: 'output', shorthand: 'o', type: 'string' },
      { name: 'allow-missing-template-keys', type: 'bool', default: 'true', noOptDefVal: 'true' },
      { name: 'template', type: 'string' },
      { name: 'show-managed-fields', type: 'bool', noOptDefVal: 'true' },
    ],
    async run(ctx: CommandContext) {
      const filenames = ctx.flags.strings('filename');
      if (ctx.args.length === 0 && filenames.length === 0)
        throw usageError(ctx.path, 'one or more CSRs must be specified as <name> or -f <filename>');
      const built =
        filenames.length > 0
          ? await infosFromFiles(ctx, filenames, ctx.flags.bool('recursive'))
          : await infosFromArgs(ctx, ['certificatesigningrequests', ...ctx.args]);
      const errors: unknown[] = [];
      const objects = await resolveObjects(ctx, built.infos, errors);
      if (errors.length > 0) throw new AggregateError(errors);
      const client = await ctx.f.client();
      const output = ctx.flags.string('output');
      const printer = await makePrinter(output === '' ? 'name' : output, {
        io: ctx.io,
        operation: output === '' ? (which === 'approve' ? 'approved' : 'denied') : '',
      });
      for (const { info, name, object } of objects) {
        if (info.mapping.group !== 'certificates.k8s.io')
          throw new KubectlError(
            `error: can only handle CertificateSigningRequest.certificates.k8s.io objects, got ${info.mapping.kind}.${info.mapping.group}`,
          );
        const status = (object['status'] ?? {}) as { conditions?: { type: string }[] };
        const conditions = status.conditions ?? [];
        const opposite = which === 'approve' ? 'Denied' : 'Approved';
        if (conditions.some((c) => c.type === opposite) && !ctx.flags.bool('force'))
          throw new KubectlError(
            `error: certificate signing request "${name}" is already ${opposite.toLowerCase()}`,
          );
        let result: KubeObject = object;
        if (!conditions.some((c) => c.type === type) || ctx.flags.bool('force')) {
          const updated = {
            ...object,
            status: {
              ...status,
              conditions: [
                ...conditions,
                {
                  type,
                  status: 'True',
                  reason: which === 'approve' ? 'KubectlApprove' : 'KubectlDeny',
                  message:
                    which === 'approve'
                      ? 'This CSR was approved by kubectl certificate approve.'
                      : 'This CSR was denied by kubectl certificate deny.',
                  lastUpdateTime: ctx.io
                    .now()
                    .toISOString()
                    .replace(/\.\d+Z$/, 'Z'),
                },
              ],
            },
          };
          result = (
            await client.send<KubeObject>('PUT', withQuery(objectPath(info, name, 'approval'), {}), {
              body: updated,
            })
          ).body;
        }
        ctx.out(printer.print(result));
      }
      return 0;
    },
  };
}

export const certificateCommand: Command = {
  name: 'certificate',
  short: 'Modify certificate resources',
  subcommands: [modify('approve'), modify('deny')],
};
