/**
 * A throwaway PKI for a TLS etcd member, made with the `openssl` command the
 * way an operator makes one: a CA, a server certificate for 127.0.0.1 and a
 * client certificate it signed, and a client certificate signed by another
 * CA that the member does not trust. Tests that need it call
 * `opensslSkipReason()` first and skip with that reason when `openssl` is
 * missing.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdPki {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  /** A client certificate signed by a CA the member does not trust. */
  strangerCertFile: string;
  strangerKeyFile: string;
}

const openssl = process.env['OPENSSL_BINARY'] ?? 'openssl';

/** Why the PKI cannot be made here (undefined: it can). */
export function opensslSkipReason(): string | undefined {
  const version = spawnSync(openssl, ['version'], { encoding: 'utf8' });
  if (version.error) return `${openssl} not found on PATH (${version.error.message})`;
  return version.status === 0 ? undefined : `${openssl} version failed: ${version.stderr}`;
}

// Our own configuration, so the system's openssl.cnf adds nothing; the leaf sections are used with `x509 -extfile`.
const config = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1,DNS:localhost
[client]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth
`;

function run(dir: string, args: string[]): void {
  const result = spawnSync(openssl, args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr}`);
}

const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function makeCa(dir: string, name: string): void {
  run(dir, [
    'req',
    '-x509',
    '-config',
    'openssl.cnf',
    '-extensions',
    'ca',
    ...newKey,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
  ]);
}

function makeLeaf(dir: string, ca: string, name: string, section: 'server' | 'client'): void {
  run(dir, [
    'req',
    '-new',
    '-config',
    'openssl.cnf',
    ...newKey,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  ]);
  run(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-set_serial',
    `0x${Date.now().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`,
    '-days',
    '2',
    '-extfile',
    'openssl.cnf',
    '-extensions',
    section,
    '-out',
    `${name}.crt`,
  ]);
}

export function makeEtcdPki(): EtcdPki {
  const dir = mkdtempSync(join(tmpdir(), 'etcd-pki-'));
  writeFileSync(join(dir, 'openssl.cnf'), config);
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeLeaf(dir, 'ca', 'server', 'server');
  makeLeaf(dir, 'ca', 'client', 'client');
  makeLeaf(dir, 'other-ca', 'stranger', 'client');
  const file = (name: string) => join(dir, name);
  return {
    dir,
    caFile: file('ca.crt'),
    serverCertFile: file('server.crt'),
    serverKeyFile: file('server.key'),
    clientCertFile: file('client.crt'),
    clientKeyFile: file('client.key'),
    strangerCertFile: file('stranger.crt'),
    strangerKeyFile: file('stranger.key'),
  };
}
