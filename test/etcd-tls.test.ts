/**
 * The Node host on an etcd member that serves TLS only and accepts only
 * clients its CA signed (`--client-cert-auth`), as production members run:
 * made with openssl on the spot, the host started from the real flags
 * (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`). With the client
 * certificate a create, a get and a watch event go through (over `https://`,
 * and over `http://` too: a CA file turns TLS on, as with the etcd3 client
 * before decision 0135); without a certificate the member trusts, or without
 * the CA or TLS at all, the host does not start and says why.
 */

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostArgs } from '../src/hosts/node/args';
import { etcdSkipReason, startEtcd, type EtcdMember } from './support/etcd';
import { makeEtcdPki, opensslSkipReason, type EtcdPki } from './support/etcd-pki';
import { startTestHost } from './support/host';
import { openWatch } from './support/watch';

const skip = etcdSkipReason() ?? opensslSkipReason();
if (skip) console.log(`SKIP etcd over TLS: ${skip}`);

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe.skipIf(skip !== undefined)('the Node host on an etcd member with client certificate auth', () => {
  let pki: EtcdPki;
  let member: EtcdMember;

  beforeAll(async () => {
    pki = makeEtcdPki();
    member = await startEtcd({
      tls: {
        caFile: pki.caFile,
        certFile: pki.serverCertFile,
        keyFile: pki.serverKeyFile,
        clientCertFile: pki.clientCertFile,
        clientKeyFile: pki.clientKeyFile,
      },
    });
  });

  afterAll(async () => {
    await member?.stop();
    if (pki) rmSync(pki.dir, { recursive: true, force: true });
  });

  /** The host's storage options from its real flags. */
  const hostOptions = (flags: (pki: EtcdPki, url: string) => string[]) => {
    const parsed = parseHostArgs(['--storage=etcd', ...flags(pki, member.url)]);
    return { storage: parsed.storage, etcd: parsed.etcd };
  };
  const clientCert = (p: EtcdPki) => [
    `--etcd-certfile=${p.clientCertFile}`,
    `--etcd-keyfile=${p.clientKeyFile}`,
  ];

  it.each([
    {
      name: 'https:// with the CA and a client certificate',
      flags: (p: EtcdPki, url: string) => [
        `--etcd-servers=${url}`,
        `--etcd-cafile=${p.caFile}`,
        ...clientCert(p),
      ],
    },
    {
      name: 'http:// with the CA and a client certificate (a CA file turns TLS on)',
      flags: (p: EtcdPki, url: string) => [
        `--etcd-servers=${url.replace('https:', 'http:')}`,
        `--etcd-cafile=${p.caFile}`,
        ...clientCert(p),
      ],
    },
  ])('serves a create, a get and a watch event: $name', async ({ name, flags }) => {
    const host = await startTestHost(hostOptions(flags));
    try {
      const cmName = `tls-${name.startsWith('https') ? 'https' : 'http'}`;
      const list = await host.request('GET', CONFIGMAPS);
      expect(list.status).toBe(200);
      const watch = await openWatch(
        host.url,
        `${CONFIGMAPS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
      );
      try {
        const created = await host.request('POST', CONFIGMAPS, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cmName }, data: { over: 'tls' } },
        });
        expect(created.status).toBe(201);
        const got = await host.request('GET', `${CONFIGMAPS}/${cmName}`);
        expect(got.body).toEqual(created.body);
        const [event] = await watch.waitFor(1);
        expect(event).toMatchObject({
          type: 'ADDED',
          object: { metadata: { name: cmName, resourceVersion: created.body.metadata.resourceVersion } },
        });
      } finally {
        watch.abort();
      }
    } finally {
      await host.close();
    }
  });

  it.each([
    {
      name: 'no client certificate',
      flags: (p: EtcdPki, url: string) => [`--etcd-servers=${url}`, `--etcd-cafile=${p.caFile}`],
      error: /No connection established\. Last error: .*alert bad certificate/,
    },
    {
      name: 'a client certificate from a CA the member does not trust',
      flags: (p: EtcdPki, url: string) => [
        `--etcd-servers=${url}`,
        `--etcd-cafile=${p.caFile}`,
        `--etcd-certfile=${p.strangerCertFile}`,
        `--etcd-keyfile=${p.strangerKeyFile}`,
      ],
      error: /No connection established\. Last error: .*alert bad certificate/,
    },
    {
      name: "no CA file: the member's certificate is not trusted",
      flags: (p: EtcdPki, url: string) => [`--etcd-servers=${url}`, ...clientCert(p)],
      error: /No connection established\. Last error: .*unable to verify the first certificate/,
    },
    {
      name: 'plain text to a member that serves TLS',
      flags: (_p: EtcdPki, url: string) => [`--etcd-servers=${url.replace('https:', 'http:')}`],
      error:
        /No connection established\. Last error: the server closed the connection without speaking HTTP\/2 \(a member that serves TLS needs --etcd-cafile\)/,
    },
  ])('refuses to start with $name, saying why', async ({ flags, error }) => {
    await expect(startTestHost(hostOptions(flags))).rejects.toThrow(error);
  });
});
