/**
 * `kubectl edit TYPE NAME`: in the browser the sandbox's Editor opens on
 * the object and its Update writes it back; in Node the object's YAML is
 * edited with $EDITOR (through the host) and, when changed, sent back as
 * an update ("edited"), or "Edit cancelled, no changes made."
 */

import { parse } from 'yaml';
import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client';
import type { Command } from '../command';
import { KubectlError, usageError } from '../errors';
import { toYaml } from '../printers/yaml';
import { withoutManagedFields, nameOf } from '../printers/output';
import { infosFromArgs } from '../resource/builder';
import { objectPath } from '../resource/visit';

export const editCommand: Command = {
  name: 'edit',
  short: 'Edit a resource on the server',
  flags: [
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'field-manager', type: 'string', default: 'kubectl-edit' },
    { name: 'validate', type: 'string', default: 'strict', noOptDefVal: 'strict' },
    { name: 'subresource', type: 'string' },
    { name: 'filename', shorthand: 'f', type: 'stringSlice' },
  ],
  async run(ctx) {
    if (ctx.args.length === 0)
      throw usageError(ctx.path, 'you must provide one or more resources by argument or filename');
    const { infos } = await infosFromArgs(ctx, ctx.args);
    const client = await ctx.f.client();
    for (const info of infos) {
      if (info.name === undefined) throw new KubectlError('error: edit needs a resource name');
      const path = objectPath(info, info.name);
      const object = (await client.send<KubeObject>('GET', path)).body;
      if (ctx.io.openEditor !== undefined) {
        ctx.io.openEditor(path);
        ctx.out(`${nameOf(object)} opened in the Editor: Update there writes it back\n`);
        continue;
      }
      if (ctx.io.edit === undefined) throw new KubectlError('error: no editor is available here');
      const text = toYaml(withoutManagedFields(object));
      const header =
        "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";
      const edited = await ctx.io.edit(header + text, `${info.mapping.resource}-${info.name}.yaml`);
      const body =
        edited
          ?.split('\n')
          .filter((l) => !l.startsWith('#'))
          .join('\n') ?? '';
      if (edited === undefined || body.trim() === '' || body === text) {
        ctx.out('Edit cancelled, no changes made.\n');
        continue;
      }
      const updated = parse(body, { version: '1.1' }) as KubeObject;
      const r = await client.send<KubeObject>(
        'PUT',
        withQuery(path, { fieldManager: ctx.flags.string('field-manager') }),
        { body: updated },
      );
      ctx.out(`${nameOf(r.body)} edited\n`);
    }
    return 0;
  },
};
