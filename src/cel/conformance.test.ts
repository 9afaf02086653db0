/**
 * The cel-spec conformance suites (data from `@bufbuild/cel-spec`) run
 * through our CEL layer, so a regression in the engine or in our fixes
 * shows. Suites Kubernetes expressions cannot reach are skipped whole, each
 * with its reason; inside the suites we run, every known gap is listed with
 * its reason and must still fail (a gap that starts passing fails the test,
 * so the list stays honest).
 */

import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import {
  conformanceCases,
  conformanceEngine,
  runCase,
  type ConformanceCase,
} from '../../test/support/cel-conformance';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

const PROTO = 'protobuf messages and wrapper types: Kubernetes values are JSON, never protobuf';

/** Whole suites outside what Kubernetes v1.27 expressions can use. */
const SKIPPED_SUITES: Record<string, string> = {
  proto2: PROTO,
  proto3: PROTO,
  proto2_ext: PROTO,
  wrappers: PROTO,
  enums: `${PROTO} (enums)`,
  dynamic: `${PROTO} (google.protobuf.Value, Struct, Any and wrappers)`,
  namespace: 'protobuf containers (qualified names in a package)',
  type_deductions: 'asserts cel-go type deductions over protobuf fields and optionals',
  optionals: 'optional types (`.?`, `optional.of`): not enabled in Kubernetes v1.27',
  math_ext: 'math extension: not offered by Kubernetes v1.27',
  encoders_ext: 'encoders extension (base64): not offered by Kubernetes v1.27',
  bindings_ext: '`cel.bind`: not offered by Kubernetes v1.27',
  block_ext: '`cel.block`: not offered by Kubernetes',
  macros2: 'two-variable comprehensions: later than Kubernetes v1.27',
};

/** Cases in the suites we run that are expected to fail, by path prefix, with the reason. */
const KNOWN_GAPS: [string[], string][] = [
  [['comparisons', 'eq_wrapper'], PROTO],
  [['comparisons', 'eq_literal', 'eq_dyn_json_null'], PROTO],
  [['comparisons', 'eq_literal', 'not_eq_dyn_proto2_msg_null'], PROTO],
  [['comparisons', 'eq_literal', 'not_eq_dyn_proto3_msg_null'], PROTO],
  [['comparisons', 'ne_literal', 'ne_proto'], PROTO],
  [['parse', 'struct_field_names'], PROTO],
  [['parse', 'whitespace'], `${PROTO} (a message literal spread over whitespace)`],
  [['parse', 'comments', 'new_line_terminated'], `${PROTO} (a message literal spread over comments)`],
  [['parse', 'nest', 'message_literal'], PROTO],
  [['parse', 'repeat', 'select'], PROTO],
  [['parse', 'repeat', 'message_literal'], PROTO],
  [
    ['fields', 'qualified_identifier_resolution', 'qualified_ident'],
    'dotted variable names resolve through protobuf containers',
  ],
  [
    ['fields', 'qualified_identifier_resolution', 'map_field_select'],
    'dotted variable names resolve through protobuf containers',
  ],
  [
    ['fields', 'qualified_identifier_resolution', 'qualified_identifier_resolution_unchecked'],
    'dotted variable names resolve through protobuf containers',
  ],
  [
    ['fields', 'qualified_identifier_resolution', 'ident_with_longest_prefix_check'],
    'dotted variable names resolve through protobuf containers',
  ],
  [
    ['fields', 'quoted_map_fields'],
    'backquoted field names (`.`foo-bar``) are later CEL syntax, not in Kubernetes v1.27',
  ],
  [
    ['string_ext', 'format'],
    '`string.format` is strings extension version 1; Kubernetes v1.27 offers version 0',
  ],
  [
    ['string_ext', 'quote'],
    '`strings.quote` is strings extension version 1; Kubernetes v1.27 offers version 0',
  ],
  [
    ['basic', 'variables', 'unbound_is_runtime_error'],
    'needs unchecked evaluation of an undeclared variable; every expression here is type-checked, so it is a compile error',
  ],
  [
    ['basic', 'functions', 'unbound_is_runtime_error'],
    'needs unchecked evaluation of an undeclared function; here it is a compile error',
  ],
  [
    ['parse', 'receiver_function_names'],
    'reserved words as method names parse, but the cases call them on an undeclared variable (a compile error here)',
  ],
  [
    ['parse', 'bytes_literals', 'raw_'],
    'raw bytes literals (`br"..."`): the engine lexer does not read them',
  ],
  [
    ['parse', 'bytes_literals', 'upper_raw_'],
    'raw bytes literals (`bR"..."`): the engine lexer does not read them',
  ],
  [
    ['comparisons', 'gt_literal', 'not_gt_double'],
    'a double literal without a leading digit (`.99`): the engine lexer does not read it',
  ],
];

function knownGap(path: string[]): string | undefined {
  for (const [prefix, reason] of KNOWN_GAPS) {
    // A third element is a prefix of test names (`ne_proto` covers `ne_proto2`, `ne_proto3_any_unpack`, ...).
    if (prefix.every((p, i) => (i === 2 ? path[i]!.startsWith(p) : path[i] === p))) return reason;
  }
  return undefined;
}

const engine = conformanceEngine();
const bySuite = new Map<string, ConformanceCase[]>();
for (const c of conformanceCases()) bySuite.set(c.path[0], [...(bySuite.get(c.path[0]) ?? []), c]);

describe('cel-spec conformance (our layer over @marcbachmann/cel-js)', () => {
  for (const [suite, cases] of bySuite) {
    const skipped = SKIPPED_SUITES[suite];
    if (skipped !== undefined) {
      it.skip(`${suite} (${cases.length} cases): ${skipped}`, () => {});
      continue;
    }
    describe(suite, () => {
      for (const c of cases) {
        const gap = knownGap(c.path);
        const name = `${c.path[1]} / ${c.path[2]}${gap !== undefined ? ' [known gap]' : ''}`;
        it(name, () => {
          const result = runCase(engine, c.test);
          if (gap === undefined) expect(result.ok ? 'pass' : result.why).toBe('pass');
          else expect(result.ok, `now passes: remove it from KNOWN_GAPS (${gap})`).toBe(false);
        });
      }
    });
  }
});
