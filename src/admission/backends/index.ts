/**
 * Webhook backends hosted by the sandbox itself (a workshop has no webhook
 * server): the model, validation, the store, and the transport that
 * answers calls addressed to them. See
 * docs/decisions/0017-sandbox-webhook-backends.md.
 */

export * from './types';
export { backendCalls } from './library';
export { backendStore, BACKENDS_SETTING, type BackendStore, type SettingsStore } from './store';
export { sandboxTransport, type SandboxTransportOptions } from './transport';
export { resolveBackend } from './address';
