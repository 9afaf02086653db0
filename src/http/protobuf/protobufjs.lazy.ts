/**
 * What the protobuf codec takes from protobufjs, with the generated tables
 * only it reads (the descriptor of the built-in kinds, the Go pointer fields
 * that decide a decoded scalar's presence): loaded on first use (see
 * machinery/lazy-module.ts), since most clients of the in-browser server
 * never ask for protobuf. The codec itself (descriptor, conversion) comes
 * with it: the pipeline loads this before a request that mentions protobuf.
 */

export { MapField, Root, util } from 'protobufjs/light';
export { default as protoJson } from '../../registry/generated/proto.json';
export { default as goPointers } from '../../registry/generated/go-pointers.json';
export { protobufCodec } from './codec';
