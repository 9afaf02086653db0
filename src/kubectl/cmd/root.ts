/**
 * The `kubectl` command and its subcommands, in the order `kubectl help`
 * lists them.
 */

import type { Command } from '../command';
import { getCommand } from './get';

export const rootCommand: Command = {
  name: 'kubectl',
  short: 'kubectl controls the Kubernetes cluster manager.',
  subcommands: [getCommand],
};
