/**
 * The `kubectl` command and its subcommands.
 */

import type { Command } from '../command';
import { apiResourcesCommand } from './api-resources';
import { apiVersionsCommand } from './api-versions';
import { applyCommand } from './apply';
import { autoscaleCommand } from './autoscale';
import { authCommand } from './auth';
import { certificateCommand } from './certificate';
import { clusterInfoCommand } from './cluster-info';
import { diffCommand } from './diff';
import { editCommand } from './edit';
import { explainCommand } from './explain';
import { exposeCommand } from './expose';
import { waitCommand } from './wait';
import { configCommand } from './config';
import { createCommand } from './create';
import { deleteCommand } from './delete';
import { describeCommand } from './describe';
import { getCommand } from './get';
import { annotateCommand, labelCommand } from './label-annotate';
import { execCommand, logsCommand } from './logs';
import { cordonNodeCommand, uncordonNodeCommand } from './node/cordon';
import { drainCommand } from './node/drain';
import { taintCommand } from './node/taint';
import { patchCommand } from './patch';
import { replaceCommand } from './replace';
import { rolloutCommand } from './rollout';
import { runCommand } from './run';
import { scaleCommand } from './scale';
import { setCommand } from './set';
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
    autoscaleCommand,
    certificateCommand,
    clusterInfoCommand,
    configCommand,
    cordonNodeCommand,
    createCommand,
    deleteCommand,
    describeCommand,
    diffCommand,
    drainCommand,
    editCommand,
    execCommand,
    explainCommand,
    exposeCommand,
    getCommand,
    labelCommand,
    logsCommand,
    patchCommand,
    replaceCommand,
    rolloutCommand,
    runCommand,
    scaleCommand,
    setCommand,
    taintCommand,
    uncordonNodeCommand,
    versionCommand,
    waitCommand,
  ],
};
