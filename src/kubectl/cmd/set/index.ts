/**
 * `kubectl set`: change fields of existing objects' pod templates (only
 * `image` and `resources` for now).
 */

import type { Command } from '../../command';
import { groupCommand } from '../group';
import { setImageCommand } from './image';
import { setResourcesCommand } from './resources';

export const setCommand: Command = groupCommand({
  name: 'set',
  short: 'Set specific features on objects',
  subcommands: [setImageCommand, setResourcesCommand],
});
