/**
 * What the protobuf codec takes from protobufjs, with the descriptor of the
 * built-in kinds: loaded on first use (see machinery/lazy-module.ts), since
 * most clients of the in-browser server never ask for protobuf.
 */

export { MapField, Root, util } from 'protobufjs/light';
export { default as protoJson } from '../../registry/generated/proto.json';
