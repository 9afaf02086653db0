/**
 * `kubectl api-resources`: the server's preferred resources (each group
 * resource from its group's preferred version, else the first version
 * that serves it), filtered by `--api-group`, `--namespaced`, `--verbs`,
 * sorted by group and name (or `--sort-by=name|kind`), as a table, `-o
 * wide` with verbs and categories, or `-o name` as `resource.group`.
 */

import type { Command } from '../command';
import { KubectlError } from '../errors';
import { tabwrite } from '../printers/tabwriter';

export const apiResourcesCommand: Command = {
  name: 'api-resources',
  short: 'Print the supported API resources on the server',
  flags: [
    { name: 'output', shorthand: 'o', type: 'string' },
    { name: 'api-group', type: 'string' },
    { name: 'namespaced', type: 'bool', default: 'true', noOptDefVal: 'true' },
    { name: 'verbs', type: 'stringSlice' },
    { name: 'sort-by', type: 'string' },
    { name: 'cached', type: 'bool', noOptDefVal: 'true' },
    { name: 'no-headers', type: 'bool', noOptDefVal: 'true' },
    { name: 'categories', type: 'stringSlice' },
  ],
  async run(ctx) {
    const output = ctx.flags.string('output');
    if (output !== '' && output !== 'wide' && output !== 'name')
      throw new KubectlError(`error: --output ${output} is not available`);
    const sortBy = ctx.flags.string('sort-by');
    if (sortBy !== '' && sortBy !== 'name' && sortBy !== 'kind')
      throw new KubectlError(`error: --sort-by accepts only name or kind`);
    const d = await ctx.f.discovery();
    const seen = new Map<
      string,
      { group: string; groupVersion: string; resource: (typeof d.groupVersions)[number]['resources'][number] }
    >();
    const order: string[] = [];
    const groups = [...new Set(d.groupVersions.map((gv) => gv.group))];
    for (const group of groups) {
      const versions = d.groupVersions.filter((gv) => gv.group === group);
      for (const gv of versions) {
        for (const r of gv.resources) {
          if (r.name.includes('/')) continue;
          const key = `${group}/${r.name}`;
          if (seen.has(key) && !gv.preferred) continue;
          if (!seen.has(key)) order.push(key);
          seen.set(key, { group, groupVersion: gv.groupVersion, resource: r });
        }
      }
    }
    const apiGroup = ctx.flags.string('api-group');
    const verbs = ctx.flags.strings('verbs');
    const categories = ctx.flags.strings('categories');
    let rows = order
      .map((k) => seen.get(k)!)
      .filter((r) => (r.resource.verbs ?? []).length > 0)
      .filter((r) => !ctx.flags.changed.has('api-group') || r.group === apiGroup)
      .filter(
        (r) => !ctx.flags.changed.has('namespaced') || r.resource.namespaced === ctx.flags.bool('namespaced'),
      )
      .filter((r) => verbs.every((v) => (r.resource.verbs ?? []).includes(v)))
      .filter((r) => categories.every((c) => (r.resource.categories ?? []).includes(c)));
    const value = (r: (typeof rows)[number]) =>
      sortBy === 'name' ? r.resource.name : sortBy === 'kind' ? r.resource.kind : r.group;
    rows = rows
      .map((r, i) => ({ r, i }))
      .sort((a, b) => {
        const va = value(a.r);
        const vb = value(b.r);
        if (va !== vb) return va < vb ? -1 : 1;
        if (a.r.resource.name !== b.r.resource.name) return a.r.resource.name < b.r.resource.name ? -1 : 1;
        return a.i - b.i;
      })
      .map((x) => x.r);
    if (output === 'name') {
      ctx.out(rows.map((r) => `${r.resource.name}${r.group !== '' ? `.${r.group}` : ''}\n`).join(''));
      return 0;
    }
    let text = '';
    if (!ctx.flags.bool('no-headers'))
      text +=
        [
          'NAME',
          'SHORTNAMES',
          'APIVERSION',
          'NAMESPACED',
          'KIND',
          ...(output === 'wide' ? ['VERBS', 'CATEGORIES'] : []),
        ].join('\t') + '\n';
    for (const r of rows) {
      const cells = [
        r.resource.name,
        (r.resource.shortNames ?? []).join(','),
        r.groupVersion,
        String(r.resource.namespaced),
        r.resource.kind,
      ];
      if (output === 'wide')
        cells.push((r.resource.verbs ?? []).join(','), (r.resource.categories ?? []).join(','));
      text += cells.join('\t') + '\n';
    }
    ctx.out(tabwrite(text));
    return 0;
  },
};
