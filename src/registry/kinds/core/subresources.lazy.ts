/**
 * The core kinds' subresources a first visit never asks for, loaded with the
 * first request to one of them (0119): the pods' log, exec, attach,
 * portforward, proxy and binding, the nodes' and services' proxy, and the
 * service accounts' token requests (and the top-level `bindings`, which
 * binds as `pods/binding` does). Each registration reaches its storage
 * through lazy-subresources.ts.
 */

export { logStorage } from './pod/log';
export { execStorage } from './pod/exec';
export { attachStorage } from './pod/attach';
export { portForwardStorage } from './pod/portforward';
export { podProxyStorage } from './pod/proxy';
export { bind, bindingStorage } from './pod/binding';
export { nodeProxyStorage } from './node/proxy';
export { serviceProxyStorage } from './service/proxy';
export { tokenRequestStorage } from './serviceaccount/token';
