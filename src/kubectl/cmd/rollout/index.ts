/**
 * `kubectl rollout`: manage the rollout of Deployments, DaemonSets and
 * StatefulSets (status, history, undo, restart, pause, resume). Without a
 * subcommand it prints its help to standard error and fails, as kubectl's
 * command groups do.
 */

import type { Command } from '../../command';
import { groupCommand } from '../group';
import { rolloutHistoryCommand } from './history';
import { rolloutPauseCommand, rolloutRestartCommand, rolloutResumeCommand } from './patch-template';
import { rolloutStatusCommand } from './status';
import { rolloutUndoCommand } from './undo';

export const rolloutCommand: Command = groupCommand({
  name: 'rollout',
  short: 'Manage the rollout of a resource',
  subcommands: [
    rolloutHistoryCommand,
    rolloutPauseCommand,
    rolloutRestartCommand,
    rolloutResumeCommand,
    rolloutStatusCommand,
    rolloutUndoCommand,
  ],
});
