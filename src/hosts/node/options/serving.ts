/**
 * Secure serving: `--secure-port` and `--bind-address` (the real names) with
 * the sandbox's older `--port` and `--host`, the serving certificate
 * (`--tls-cert-file`, `--tls-private-key-file`) and `--insecure-http`, as
 * the real SecureServingOptions parses and validates them.
 */

import { isIP } from 'node:net';
import type { NodeHostOptions } from '../host';
import { FlagError, invalid, readFlagFile, type FlagDecl, type RawFlags, type ReadFile } from './flags';

export const servingFlags = {
  port: {
    kind: 'string',
    type: 'int',
    section: 'sandbox',
    usage: 'The port to serve on (0 picks a free port); same as --secure-port.',
  },
  host: {
    kind: 'string',
    section: 'sandbox',
    usage: 'The address to listen on; same as --bind-address.',
    default: '127.0.0.1',
  },
  'secure-port': {
    kind: 'string',
    type: 'int',
    section: 'secure serving',
    usage:
      'The port on which to serve HTTPS with authentication and authorization. It cannot be switched off with 0.',
    default: '6443',
  },
  'bind-address': {
    kind: 'string',
    type: 'ip',
    section: 'secure serving',
    usage: 'The IP address on which to listen for the --secure-port port.',
    default: '127.0.0.1',
  },
  'tls-cert-file': {
    kind: 'string',
    section: 'secure serving',
    usage:
      'File containing the x509 certificate for HTTPS (CA cert, if any, concatenated after server cert). Without it a certificate issued by the cluster CA is served.',
  },
  'tls-private-key-file': {
    kind: 'string',
    section: 'secure serving',
    usage: 'File containing the x509 private key matching --tls-cert-file.',
  },
  'insecure-http': {
    kind: 'bool',
    section: 'sandbox',
    usage: 'Serve plain HTTP instead of HTTPS (for local experiments only).',
  },
} as const satisfies Record<string, FlagDecl>;

type ServingFlag = keyof typeof servingFlags;

function parsePort(name: string, value: string, allowZero: boolean): number {
  const port = Number(value);
  if (!/^-?\d+$/.test(value))
    throw invalid(name, value, `strconv.ParseInt: parsing "${value}": invalid syntax`);
  if (port < (allowZero ? 0 : 1) || port > 65535)
    throw new FlagError(
      allowZero
        ? `--${name} ${value} must be between 0 and 65535, inclusive`
        : `--${name} ${value} must be between 1 and 65535, inclusive. It cannot be turned off with 0`,
    );
  return port;
}

/** The serving flags into `options`; a bad value stops the start at once, as on the real server. */
export function servingOf(raw: RawFlags<ServingFlag>, read: ReadFile, options: NodeHostOptions): void {
  const s = raw.strings;
  // `--port 0` (a free port) stays possible for tests; the real `--secure-port` cannot be 0.
  if (s.port !== undefined) options.port = parsePort('port', s.port, true);
  if (s['secure-port'] !== undefined) options.port = parsePort('secure-port', s['secure-port'], false);
  if (s.host !== undefined) options.host = s.host;
  if (s['bind-address'] !== undefined) {
    if (isIP(s['bind-address']) === 0)
      throw invalid('bind-address', s['bind-address'], `failed to parse IP: "${s['bind-address']}"`);
    options.host = s['bind-address'];
  }
  const certFile = s['tls-cert-file'];
  const keyFile = s['tls-private-key-file'];
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  if (certFile !== undefined && keyFile !== undefined)
    options.tls = {
      certPEM: readFlagFile(read, certFile, 'unable to load server certificate: '),
      keyPEM: readFlagFile(read, keyFile, 'unable to load server certificate: '),
    };
  if (raw.bools['insecure-http'] === true) options.insecureHttp = true;
}
