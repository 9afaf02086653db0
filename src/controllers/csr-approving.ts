/**
 * The auto-approver, as the real controller manager's `csrapproving`
 * controller: a pending request to the node client signer that is a valid
 * node client request (the signer's own rules) is approved when the
 * requester may `create` the `certificatesigningrequests/selfnodeclient`
 * subresource (a node renewing its own certificate: the requester is the
 * request's CN) or `certificatesigningrequests/nodeclient` (a bootstrap
 * identity asking for a node) — asked with a SubjectAccessReview for the
 * requester recorded in the request's spec. The approval is the condition
 * `Approved`, reason `AutoApproved`, through the `approval` subresource.
 * A recognized request whose review says no is looked at again with
 * client-go's per-item backoff (5 ms doubling to 1000 s), so a binding
 * made later still approves it.
 */

import type { CertificateSigningRequest } from '../api/certificates';
import { resourcePath } from '../client/paths';
import { isNotFound } from './api-errors';
import { decodeBase64Text } from '../machinery/base64-text';
import { approvalState, conditionsOf, csrResource, isIssued, type CsrSigningService } from './csr-common';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

interface Recognizer {
  subresource: 'selfnodeclient' | 'nodeclient';
  recognize(csr: CertificateSigningRequest, commonName: string | undefined): boolean;
  message: string;
}

const recognizers: readonly Recognizer[] = [
  {
    subresource: 'selfnodeclient',
    recognize: (csr, cn) => cn !== undefined && csr.spec?.username === cn,
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  {
    subresource: 'nodeclient',
    recognize: (_csr, cn) => cn !== undefined,
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  },
];

/** client-go's default per-item rate limiter for controllers. */
function backoffMs(failures: number): number {
  return Math.min(5 * 2 ** failures, 1_000_000);
}

export function csrApprovingController(ctx: ControllerContext, signing: CsrSigningService): Controller {
  const ref = csrResource(ctx.profile);
  const sarPath = resourcePath({
    group: ctx.profile.suffixed('authorization'),
    version: 'v1',
    resource: 'subjectaccessreviews',
  });
  const notApproved = new Map<string, number>();

  const allowed = async (csr: CertificateSigningRequest, subresource: string): Promise<boolean> => {
    const spec = csr.spec ?? {};
    const review = {
      apiVersion: `${ctx.profile.suffixed('authorization')}/v1`,
      kind: 'SubjectAccessReview',
      spec: {
        user: spec.username ?? '',
        ...(spec.uid !== undefined ? { uid: spec.uid } : {}),
        groups: spec.groups ?? [],
        ...(spec.extra !== undefined ? { extra: spec.extra } : {}),
        resourceAttributes: {
          group: ref.group,
          version: '*',
          resource: 'certificatesigningrequests',
          verb: 'create',
          subresource,
        },
      },
    };
    const answer = await ctx.client.send<{ status?: { allowed?: boolean } }>('POST', sarPath, {
      body: review,
    });
    return answer.body.status?.allowed === true;
  };

  const reconcile = async (name: string): Promise<{ requeueAfterMs?: number } | void> => {
    await informer.synced;
    const csr = informer.cache.get(name) as CertificateSigningRequest | undefined;
    if (csr === undefined || isIssued(csr)) return void notApproved.delete(name);
    const { approved, denied } = approvalState(csr);
    if (approved || denied) return void notApproved.delete(name);
    if (csr.spec?.signerName !== signing.nodeClientSigner) return;

    const commonName = await signing.nodeClientCommonName(
      decodeBase64Text(csr.spec.request ?? ''),
      csr.spec.usages ?? [],
    );
    const tried: string[] = [];
    for (const r of recognizers) {
      if (!r.recognize(csr, commonName)) continue;
      tried.push(r.subresource);
      if (!(await allowed(csr, r.subresource))) continue;
      const conditions = [
        ...conditionsOf(csr),
        { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message },
      ];
      try {
        await ctx.client.update(
          { ...ref, name, subresource: 'approval' },
          { ...csr, status: { ...csr.status, conditions } },
        );
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      notApproved.delete(name);
      return;
    }
    if (tried.length === 0) return;
    // Recognized, but the requester may not have it approved (yet): look again later, ever less often.
    const failures = (notApproved.get(name) ?? 0) + 1;
    notApproved.set(name, failures);
    return { requeueAfterMs: backoffMs(failures) };
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: CertificateSigningRequest): void => queue.add(obj.metadata?.name ?? '');
  const informer: Informer = new Informer(ctx.client, ref, {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
    delete: (obj) => notApproved.delete(obj.metadata?.name ?? ''),
  });
  return {
    name: 'csrapproving',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
