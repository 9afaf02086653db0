/**
 * What the Watch inspector received, for the course's checks (`events` in a
 * lesson's CEL): the inspector view pushes every line it shows here, and a
 * lesson's "Show me" starts its watch here (through the learner's recorded
 * client, so the request log has it too). One feed per page; the inspector
 * view and the lesson page may be open in any order.
 */

import type { ApiClient } from '../../client/index';
import type { WatchRequest } from '../../lessons/format';
import { ClientWatchInspector, type InspectorEvent, type WatchInspector } from '../../lessons/inspector';

const maxEvents = 5000;

class InspectorFeed implements WatchInspector {
  private list: InspectorEvent[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly runner = new ClientWatchInspector();
  private lastSeen: InspectorEvent | undefined;

  constructor() {
    // Lines of a "Show me" watch join the feed as they arrive.
    this.runner.subscribe(() => {
      const events = this.runner.events();
      const fresh = events.slice(this.lastSeen === undefined ? 0 : events.lastIndexOf(this.lastSeen) + 1);
      this.lastSeen = events.at(-1);
      for (const event of fresh) this.add(event);
    });
  }

  events(): readonly InspectorEvent[] {
    return this.list;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(request: WatchRequest, client: ApiClient): void {
    this.runner.start(request, client);
  }

  stop(): void {
    this.runner.stop();
  }

  /** A line the inspector view shows. */
  add(event: InspectorEvent): void {
    this.list = [...this.list, event].slice(-maxEvents);
    for (const listener of this.listeners) listener();
  }
}

export const inspectorFeed = new InspectorFeed();
