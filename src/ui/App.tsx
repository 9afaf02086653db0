/**
 * The application: the API server is started first (the connection gate),
 * then the sandbox screen talks to it.
 */

import { ConnectionGate } from './components/ConnectionGate';
import { Sandbox } from './components/Sandbox';

export function App({ connect }: { connect: () => Promise<unknown> }) {
  return (
    <ConnectionGate connect={connect}>
      <Sandbox />
    </ConnectionGate>
  );
}
