// temporary stub
import type { Engine } from '../../../test/support/cel-conformance';
export function conformanceEngine(): Engine & { prepare(rule: string, ctx: Record<string, unknown>): () => unknown } {
  return { name: 'ours', evaluate: () => ({ error: new Error('stub') }), equals: () => false, prepare: () => () => 0 };
}
