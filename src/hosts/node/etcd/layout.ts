/**
 * Where the store's rows live in etcd. Objects sit under `<prefix><key>`
 * (the registry's keys start with `/`, so `/registry/pods/ns/name` as in the
 * real server); the store's own rows sit beside them under `<prefix>#`, which
 * sorts outside every object range (`#` < `/`) but inside the one watch the
 * store keeps on `[<prefix>#, <prefix>0)`.
 */

export class KeyLayout {
  constructor(readonly prefix: string) {}

  object(key: string): string {
    return this.prefix + key;
  }

  /** The store key of an etcd key, or undefined when it is not an object row. */
  storeKey(etcdKey: string): string | undefined {
    return etcdKey.startsWith(this.prefix + '/') ? etcdKey.slice(this.prefix.length) : undefined;
  }

  /** The row holding the revision base (see etcd-storage.ts); its put marks a clear or an import. */
  get base(): string {
    return this.prefix + '#meta/base';
  }

  setting(name: string): string {
    return this.prefix + '#settings/' + name;
  }

  get settings(): string {
    return this.prefix + '#settings/';
  }

  /** Everything of this store: its own rows and every object. */
  get all(): { start: string; end: string } {
    return { start: this.prefix + '#', end: this.prefix + '0' };
  }

  /** All object rows. */
  get objects(): { start: string; end: string } {
    return { start: this.prefix + '/', end: this.prefix + '0' };
  }

  /** The etcd range end of a store-key range end (undefined: the end of all objects). */
  end(upper: string | undefined): string {
    return upper === undefined ? this.objects.end : this.object(upper);
  }
}
