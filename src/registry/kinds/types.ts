/**
 * What a kind with special behaviour registers: its strategy hooks, the
 * storages of its subresources, or — for kinds that are never stored
 * (reviews, bindings) — its whole storage. Each such kind has one folder,
 * `kinds/<group>/<kind>/`, whose `index.ts` exports its registration;
 * `kinds/index.ts` lists them all.
 */

import type { NodeAgentDialer } from '../../api/node-agent';
import type { Authorizer } from '../../auth/authorizer';
import type { TokenAuthenticator } from '../../auth/authn/types';
import type { BoundTokenRequest } from '../../auth/authn/service-account-signer';
import type { RestStorage } from '../rest/capabilities';
import type { KindHooks } from '../rest/strategy';
import type { ResourceType } from '../resource-type';
import type { GenericStore, StoreDeps } from '../generic/store';
import type { ServiceAllocators } from './core/service/allocators';

/** What TokenRequest needs of the server's service-account token signer (known once the server's identity is loaded). */
export interface ServiceAccountTokenService {
  /** `--api-audiences` (default: the issuer): what a request naming no audience gets. */
  apiAudiences(): readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 for no maximum. */
  maxExpirationSeconds(): number;
  /** `--service-account-extend-token-expiration`. */
  extendExpiration(): boolean;
  signBound(request: BoundTokenRequest): Promise<string>;
}

/** Services of the server that some kinds' storages call (the review kinds ask authentication and authorization). */
export interface KindServices {
  authorizer: Authorizer;
  tokenAuthenticator: TokenAuthenticator;
  /** TokenRequest's signer (absent: `serviceaccounts/<name>/token` answers 503). */
  serviceAccountTokens?: ServiceAccountTokenService;
  /** The Service cluster-IP and node-port pools (absent: Services are stored without allocation). */
  serviceAllocators?: ServiceAllocators;
  /** The node agents behind nodes (a simulated node's kubelet); absent, or none at an address: the stand-in answers. */
  nodeAgents?: NodeAgentDialer;
}

export interface KindStorageContext {
  rt: ResourceType;
  deps: StoreDeps;
  services: KindServices;
  /** The store of another served resource by group and resource (eviction reads PodDisruptionBudgets). */
  storeFor(group: string, resource: string): GenericStore | undefined;
}

export interface StoredKindContext extends KindStorageContext {
  /** The main resource's store: subresources read and write the same objects. */
  store: GenericStore;
}

export interface KindRegistration {
  /** The kind's strategy hooks; a function receives the resource and the server's services (Service allocators). */
  hooks?: KindHooks | ((rt: ResourceType, ctx: KindStorageContext) => KindHooks);
  /** Storages of subresources special to this kind (others — status, scale — come from the generic store). */
  subresources?: Record<string, (ctx: StoredKindContext) => RestStorage>;
  /** The main resource's storage when it offers less than the generic store (Namespace has no deletecollection). */
  main?: (ctx: StoredKindContext) => RestStorage;
  /** A kind that is never stored: its whole storage. */
  storage?: (ctx: KindStorageContext) => RestStorage;
}
