/**
 * The application: the API server is started first (the connection gate,
 * for the profile chosen in this browser), then the shell with its views.
 */

import { ConnectionGate } from './app/ConnectionGate';
import { Shell } from './app/Shell';
import type { Connect } from './main';

export function App({ connect }: { connect: Connect }) {
  return (
    <ConnectionGate connect={connect}>
      <Shell />
    </ConnectionGate>
  );
}
