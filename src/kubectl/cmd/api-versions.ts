/**
 * `kubectl api-versions`: every served group/version, sorted.
 */

import type { Command } from '../command';

export const apiVersionsCommand: Command = {
  name: 'api-versions',
  short: 'Print the supported API versions on the server, in the form of "group/version"',
  async run(ctx) {
    const d = await ctx.f.discovery();
    const versions = d.groupVersions.map((gv) => gv.groupVersion).sort();
    ctx.out(versions.map((v) => `${v}\n`).join(''));
    return 0;
  },
};
