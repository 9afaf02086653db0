/** The simulation flags of `parseHostArgs`: `--default-storage-class` and `--scheduler` beside the settings, unset unless given. */

import { describe, expect, it } from 'vitest';
import { parseHostArgs } from './args';

describe('simulation flags', () => {
  it.each([
    { argv: [], want: undefined },
    { argv: ['--default-storage-class'], want: undefined },
    { argv: ['--default-storage-class=true'], want: undefined },
    { argv: ['--default-storage-class=false'], want: { defaultStorageClass: false } },
    { argv: ['--nodes', '0'], want: { settings: { nodes: 0 } } },
    {
      argv: ['--default-storage-class=false', '--nodes=0'],
      want: { defaultStorageClass: false, settings: { nodes: 0 } },
    },
    {
      argv: ['--nodes=2', '--default-storage-class=false'],
      want: { defaultStorageClass: false, settings: { nodes: 2 } },
    },
    { argv: ['--scheduler=true'], want: undefined },
    { argv: ['--scheduler=false'], want: { scheduler: false } },
    {
      argv: ['--scheduler=false', '--default-storage-class=false', '--nodes=0'],
      want: { scheduler: false, defaultStorageClass: false, settings: { nodes: 0 } },
    },
  ])('$argv', ({ argv, want }) => {
    expect(parseHostArgs(argv).simulation).toEqual(want);
  });

  it('refuses a value that is not a bool', () => {
    expect(() => parseHostArgs(['--default-storage-class=maybe'])).toThrow(
      'invalid argument "maybe" for "--default-storage-class" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });
});
