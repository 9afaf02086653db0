/**
 * How the server reaches a webhook: the call an admission webhook, the
 * image policy webhook or a token webhook makes (a JSON body POSTed to a
 * `clientConfig`), and the answer. The core never opens a socket: the
 * sandbox's own backends answer calls addressed to them in both hosts, and
 * the Node host adds real HTTPS for every other address.
 */

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of a PEM bundle (as in the configuration objects); absent: the system roots. */
  caBundle?: string;
}

/** Credentials from the admission configuration's kubeconfig (`users` matched by host). */
export interface WebhookCredentials {
  token?: string;
  username?: string;
  password?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
}

export interface WebhookCall {
  clientConfig: WebhookClientConfig;
  /** The serialized request (AdmissionReview, ImageReview, TokenReview). */
  body: string;
  timeoutMs: number;
  credentials?: WebhookCredentials;
  signal?: AbortSignal;
}

export interface WebhookCallResult {
  status: number;
  contentType: string | null;
  body: string;
}

/** Why a call got no answer; the message is what the real server's error says after `failed calling webhook …:`. */
export class WebhookCallError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'rejected',
    message: string,
  ) {
    super(message);
  }
}

export interface WebhookTransport {
  /** Answers the call or throws a WebhookCallError. */
  call(call: WebhookCall): Promise<WebhookCallResult>;
}

/** A transport that reaches nothing (the browser's fallback for addresses outside the sandbox). */
export const unreachableTransport: WebhookTransport = {
  call(call) {
    const target =
      call.clientConfig.url ??
      (call.clientConfig.service !== undefined
        ? `https://${call.clientConfig.service.name}.${call.clientConfig.service.namespace}.svc:${call.clientConfig.service.port ?? 443}${call.clientConfig.service.path ?? '/'}`
        : '<no address>');
    return Promise.reject(
      new WebhookCallError('unreachable', `Post "${target}": dial tcp: lookup failed: no such host`),
    );
  },
};
