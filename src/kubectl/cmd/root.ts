/**
 * The `kubectl` command and its subcommands.
 */

import type { Command } from '../command';
import { apiResourcesCommand } from './api-resources';
import { apiVersionsCommand } from './api-versions';
import { applyCommand } from './apply';
import { authCommand } from './auth';
import { certificateCommand } from './certificate';
import { clusterInfoCommand } from './cluster-info';
import { diffCommand } from './diff';
import { editCommand } from './edit';
import { explainCommand } from './explain';
import { waitCommand } from './wait';
import { configCommand } from './config';
import { createCommand } from './create';
import { deleteCommand } from './delete';
import { describeCommand } from './describe';
import { getCommand } from './get';
import { annotateCommand, labelCommand } from './label-annotate';
import { execCommand, logsCommand } from './logs';
import { patchCommand } from './patch';
import { replaceCommand } from './replace';
import { runCommand } from './run';
import { scaleCommand } from './scale';
import { versionCommand } from './version';

export const rootCommand: Command = {
  name: 'kubectl',
  short: 'kubectl controls the Kubernetes cluster manager.',
  subcommands: [
    annotateCommand,
    apiResourcesCommand,
    apiVersionsCommand,
    applyCommand,
    authCommand,
    certificateCommand,
    clusterInfoCommand,
    configCommand,
    createCommand,
    deleteCommand,
    describeCommand,
    diffCommand,
    editCommand,
    execCommand,
    explainCommand,
    getCommand,
    labelCommand,
    logsCommand,
    patchCommand,
    replaceCommand,
    runCommand,
    scaleCommand,
    versionCommand,
    waitCommand,
  ],
};
