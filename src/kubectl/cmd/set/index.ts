/**
 * `kubectl set`: change fields of existing objects' pod templates (only
 * `image` for now).
 */

import type { Command } from '../../command';
import { groupCommand } from '../group';
import { setImageCommand } from './image';

export const setCommand: Command = groupCommand({
  name: 'set',
  short: 'Set specific features on objects',
  subcommands: [setImageCommand],
});
