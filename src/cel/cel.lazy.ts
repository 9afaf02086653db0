/**
 * What the CEL layer takes from its two libraries, the CEL engine and RE2
 * (CEL's `matches`, `find`, `findAll` and CRD schema `pattern`s): loaded on
 * first use (see machinery/lazy-module.ts and cel/engine.ts), since most
 * requests to the in-browser server evaluate no expression and match no
 * pattern.
 */

export { Environment, EvaluationError } from '@marcbachmann/cel-js';
export { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
export { RE2JS } from 're2js';
