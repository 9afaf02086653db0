/**
 * The Node front end of kubectl: fills `KubectlIO` from a working folder,
 * environment variables (KUBECONFIG, HOME), the file system and the HTTPS
 * transport, and runs one command line. `main.ts` calls it with the
 * process's streams (`npm run kubectl -- ARGS`); the differential test
 * calls it in-process with captured streams.
 */

import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import {
  configFrom,
  emptyConfig,
  mergeConfigs,
  runKubectl,
  type KubeConfig,
  type KubectlIO,
} from '../../../kubectl';
import { nodeTransport } from './transport';

export interface NodeKubectlOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  stdin: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal?: AbortSignal;
}

function kubeconfigPaths(env: Record<string, string | undefined>, cwd: string): string[] {
  const list = env['KUBECONFIG'];
  if (list !== undefined && list !== '')
    return list
      .split(delimiter)
      .filter((p) => p !== '')
      .map((p) => resolve(cwd, p));
  return [join(env['HOME'] ?? '/root', '.kube', 'config')];
}

function readConfig(path: string): KubeConfig {
  const text = readFileSync(path, 'utf8');
  return configFrom(parse(text) as unknown);
}

export function nodeKubectlIO(options: NodeKubectlOptions): KubectlIO {
  const at = (path: string) => (isAbsolute(path) ? path : join(options.cwd, path));
  return {
    stdout: options.stdout,
    stderr: options.stderr,
    stdin: options.stdin,
    files: {
      async read(path) {
        try {
          return readFileSync(at(path), 'utf8');
        } catch {
          return undefined;
        }
      },
      async list(path) {
        try {
          if (!statSync(at(path)).isDirectory()) return undefined;
          return readdirSync(at(path));
        } catch {
          return undefined;
        }
      },
      async write(path, text) {
        writeFileSync(at(path), text);
      },
    },
    kubeconfig: {
      async load(explicit) {
        if (explicit !== '') {
          if (!existsSync(at(explicit))) throw new Error(`stat ${explicit}: no such file or directory`);
          return readConfig(at(explicit));
        }
        const configs = kubeconfigPaths(options.env, options.cwd)
          .filter((p) => existsSync(p))
          .map(readConfig);
        return configs.length === 0 ? emptyConfig() : mergeConfigs(configs);
      },
      async save(explicit, config) {
        const target =
          explicit !== ''
            ? at(explicit)
            : (kubeconfigPaths(options.env, options.cwd).find((p) => existsSync(p)) ??
              (kubeconfigPaths(options.env, options.cwd)[0] as string));
        const previous = existsSync(target)
          ? (parse(readFileSync(target, 'utf8')) as Record<string, unknown>)
          : {};
        writeFileSync(
          target,
          stringify({
            ...previous,
            apiVersion: 'v1',
            kind: 'Config',
            clusters: config.clusters,
            contexts: config.contexts,
            'current-context': config['current-context'],
            users: config.users,
            preferences: config.preferences ?? {},
          }),
          { mode: 0o600 },
        );
      },
      describe(explicit) {
        return explicit !== '' ? at(explicit) : kubeconfigPaths(options.env, options.cwd).join(delimiter);
      },
    },
    transport: (connection) => nodeTransport(connection),
    env: (name) => options.env[name],
    now: () => new Date(),
    pid: process.pid,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

export function runNodeKubectl(args: string[], options: NodeKubectlOptions): Promise<number> {
  return runKubectl(args, nodeKubectlIO(options));
}
