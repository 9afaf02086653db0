/** PodNodeSelector's label-set arithmetic: parsing, conflicts, merging, whitelists. */

import { describe, expect, it } from 'vitest';
import {
  isLabelSubset,
  LabelSelectorSyntaxError,
  labelsConflict,
  mergeLabels,
  parseLabelSet,
} from './label-set';

describe('parseLabelSet', () => {
  it.each([
    ['', {}],
    ['a=b', { a: 'b' }],
    [' env = prod , example.com/zone=z1', { env: 'prod', 'example.com/zone': 'z1' }],
    ['empty=', { empty: '' }],
  ])('%j', (text, want) => expect(parseLabelSet(text)).toEqual(want));

  it.each([
    ['disk', 'invalid selector: [disk]'],
    ['a==b', 'invalid selector: [a  b]'],
    ['-bad=x', '-bad: Invalid value: "-bad"'],
    ['k=-v-', 'k: Invalid value: "-v-"'],
  ])('%j is refused', (text, message) => {
    expect(() => parseLabelSet(text)).toThrow(LabelSelectorSyntaxError);
    expect(() => parseLabelSet(text)).toThrow(message);
  });
});

describe('conflicts, merge, subset', () => {
  it('conflict is a shared key with another value', () => {
    expect(labelsConflict({ a: '1' }, { a: '2' })).toBe(true);
    expect(labelsConflict({ a: '1' }, { a: '1', b: '2' })).toBe(false);
    expect(labelsConflict({}, { a: '1' })).toBe(false);
  });
  it('the second set wins a merge', () => {
    expect(mergeLabels({ a: '1', b: '1' }, { b: '2' })).toEqual({ a: '1', b: '2' });
  });
  it('an empty whitelist admits anything; otherwise every label must be in it', () => {
    expect(isLabelSubset({ a: '1' }, {})).toBe(true);
    expect(isLabelSubset({ a: '1' }, { a: '1', b: '2' })).toBe(true);
    expect(isLabelSubset({ a: '1', c: '3' }, { a: '1' })).toBe(false);
    expect(isLabelSubset({ a: '2' }, { a: '1' })).toBe(false);
  });
});
