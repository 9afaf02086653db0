// Vitest setup (vitest.config.ts): every test file starts with all the built-in definitions loaded, as a server
// has them once its first write or its post-start hooks loaded their lazy part (registry/builtins.ts, 0134), so
// that a unit test may shape, default or validate any kind without a server. A test of that loading itself opts
// out by its file name (`*lazy-definitions*`); `ORCH_LAZY_DEFINITIONS=1` opts every file out, to run a set of
// HTTP scenarios on the definitions as the browser loads them.
import { expect } from 'vitest';
import { loadBuiltInDefinitions } from '../../src/registry/builtins';

const testPath = expect.getState().testPath ?? '';
if (process.env.ORCH_LAZY_DEFINITIONS !== '1' && !testPath.includes('lazy-definitions'))
  await loadBuiltInDefinitions();
