/**
 * etcd's KV and watch messages on the wire (etcdserverpb Range, Txn,
 * Compact and Watch, mvccpb KeyValue and Event), encoded and decoded by hand:
 * the generic codec (`@grpc/proto-loader` over protobufjs, with defaults
 * filled in and int64 turned into strings) cost about 100 µs of server CPU
 * per create (decision 0133), and since decision 0135 this is the store's
 * only codec. Only the fields the store sends or reads exist here; field
 * numbers are those of etcd's rpc.proto and kv.proto. int64 values are
 * JavaScript numbers: revisions and counts stay far below 2^53.
 */

export interface KeyValue {
  key: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
  value: Buffer;
}

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  keys_only?: boolean;
  count_only?: boolean;
}

export interface RangeResponse {
  header: { revision: number };
  kvs: KeyValue[];
  more: boolean;
  count: number;
}

export interface PutRequest {
  key: Buffer;
  value: Buffer;
}

export interface DeleteRangeRequest {
  key: Buffer;
  range_end?: Buffer;
  prev_kv?: boolean;
}

export interface DeleteRangeResponse {
  deleted: number;
  prev_kvs: KeyValue[];
}

export type Compare = {
  key: Buffer;
  result: 'Equal' | 'Greater' | 'Less' | 'NotEqual';
} & (
  | { target: 'Version'; version: number }
  | { target: 'Mod'; mod_revision: number }
  | { target: 'Value'; value: Buffer }
);

export type RequestOp =
  | { request_range: RangeRequest }
  | { request_put: PutRequest }
  | { request_delete_range: DeleteRangeRequest };

export interface TxnRequest {
  compare?: Compare[];
  success?: RequestOp[];
  failure?: RequestOp[];
}

/** A transaction's answer per operation: the member named after the request's kind is set. */
export interface ResponseOp {
  response_range?: RangeResponse;
  response_put?: Record<string, never>;
  response_delete_range?: DeleteRangeResponse;
}

export interface TxnResponse {
  header: { revision: number };
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface CompactionRequest {
  revision: number;
  physical?: boolean;
}

export interface CompactionResponse {
  header: { revision: number };
}

const compareResults = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;
const compareTargets = { Version: 0, Mod: 2, Value: 3 } as const;

/** Appends protobuf fields; nested messages are encoded first and written as bytes. */
class Writer {
  private parts: Uint8Array[] = [];
  private scratch: number[] = [];

  varintField(field: number, value: number, always = false): this {
    if (value === 0 && !always) return this;
    this.varint(field * 8);
    this.varint(value);
    return this;
  }

  boolField(field: number, value: boolean | undefined): this {
    return value ? this.varintField(field, 1) : this;
  }

  bytesField(field: number, value: Uint8Array | undefined, always = false): this {
    if (value === undefined || (value.length === 0 && !always)) return this;
    this.varint(field * 8 + 2);
    this.varint(value.length);
    this.flush();
    this.parts.push(value);
    return this;
  }

  finish(): Uint8Array {
    this.flush();
    return this.parts.length === 1 ? (this.parts[0] as Uint8Array) : Buffer.concat(this.parts);
  }

  private varint(value: number): void {
    // int64 fields here are non-negative and below 2^53, so division keeps every bit.
    while (value > 0x7f) {
      this.scratch.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    this.scratch.push(value);
  }

  private flush(): void {
    if (this.scratch.length === 0) return;
    this.parts.push(Uint8Array.from(this.scratch));
    this.scratch = [];
  }
}

function encodeRange(request: RangeRequest): Uint8Array {
  return new Writer()
    .bytesField(1, request.key)
    .bytesField(2, request.range_end)
    .varintField(3, request.limit ?? 0)
    .varintField(4, request.revision ?? 0)
    .boolField(8, request.keys_only)
    .boolField(9, request.count_only)
    .finish();
}

function encodeOp(op: RequestOp): Uint8Array {
  const writer = new Writer();
  if ('request_range' in op) writer.bytesField(1, encodeRange(op.request_range), true);
  else if ('request_put' in op)
    writer.bytesField(
      2,
      new Writer().bytesField(1, op.request_put.key).bytesField(2, op.request_put.value).finish(),
      true,
    );
  else
    writer.bytesField(
      3,
      new Writer()
        .bytesField(1, op.request_delete_range.key)
        .bytesField(2, op.request_delete_range.range_end)
        .boolField(3, op.request_delete_range.prev_kv)
        .finish(),
      true,
    );
  return writer.finish();
}

function encodeCompare(compare: Compare): Uint8Array {
  const writer = new Writer()
    .varintField(1, compareResults[compare.result])
    .varintField(2, compareTargets[compare.target])
    .bytesField(3, compare.key);
  // The oneof member is written even when zero: it says which target the compare reads.
  if (compare.target === 'Version') writer.varintField(4, compare.version, true);
  else if (compare.target === 'Mod') writer.varintField(6, compare.mod_revision, true);
  else writer.bytesField(7, compare.value, true);
  return writer.finish();
}

export function encodeRangeRequest(request: RangeRequest): Uint8Array {
  return encodeRange(request);
}

/** A CompactionRequest; `physical` waits until the compaction is applied in the backend. */
export function encodeCompactionRequest(request: CompactionRequest): Uint8Array {
  return new Writer().varintField(1, request.revision).boolField(2, request.physical).finish();
}

export function encodeTxnRequest(request: TxnRequest): Uint8Array {
  const writer = new Writer();
  for (const compare of request.compare ?? []) writer.bytesField(1, encodeCompare(compare), true);
  for (const op of request.success ?? []) writer.bytesField(2, encodeOp(op), true);
  for (const op of request.failure ?? []) writer.bytesField(3, encodeOp(op), true);
  return writer.finish();
}

/** Reads protobuf fields from one message's bytes. */
class Reader {
  pos = 0;

  constructor(
    private readonly buffer: Buffer,
    readonly end = buffer.length,
  ) {}

  /** The next field's number and wire type, or undefined at the message's end. */
  tag(): [number, number] | undefined {
    if (this.pos >= this.end) return undefined;
    const tag = this.varint();
    return [Math.floor(tag / 8), tag % 8];
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.buffer[this.pos++];
      if (byte === undefined || this.pos > this.end) throw new Error('etcd: truncated protobuf message');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  /** A length-delimited field's bytes (a view, not a copy: the frame is the response's own). */
  bytes(): Buffer {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    if (this.pos > this.end) throw new Error('etcd: truncated protobuf message');
    return this.buffer.subarray(start, this.pos);
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) this.bytes();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`etcd: unexpected protobuf wire type ${wireType}`);
  }
}

const empty = Buffer.alloc(0);

function decodeHeader(bytes: Buffer): { revision: number } {
  const reader = new Reader(bytes);
  let revision = 0;
  for (let tag = reader.tag(); tag; tag = reader.tag())
    if (tag[0] === 3 && tag[1] === 0) revision = reader.varint();
    else reader.skip(tag[1]);
  return { revision };
}

function decodeKeyValue(bytes: Buffer): KeyValue {
  const reader = new Reader(bytes);
  const kv: KeyValue = { key: empty, create_revision: 0, mod_revision: 0, version: 0, value: empty };
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 1 && wireType === 2) kv.key = reader.bytes();
    else if (field === 2 && wireType === 0) kv.create_revision = reader.varint();
    else if (field === 3 && wireType === 0) kv.mod_revision = reader.varint();
    else if (field === 4 && wireType === 0) kv.version = reader.varint();
    else if (field === 5 && wireType === 2) kv.value = reader.bytes();
    else reader.skip(wireType);
  }
  return kv;
}

export function decodeRangeResponse(bytes: Buffer): RangeResponse {
  const reader = new Reader(bytes);
  const response: RangeResponse = { header: { revision: 0 }, kvs: [], more: false, count: 0 };
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 1 && wireType === 2) response.header = decodeHeader(reader.bytes());
    else if (field === 2 && wireType === 2) response.kvs.push(decodeKeyValue(reader.bytes()));
    else if (field === 3 && wireType === 0) response.more = reader.varint() !== 0;
    else if (field === 4 && wireType === 0) response.count = reader.varint();
    else reader.skip(wireType);
  }
  return response;
}

function decodeDeleteRange(bytes: Buffer): DeleteRangeResponse {
  const reader = new Reader(bytes);
  const response: DeleteRangeResponse = { deleted: 0, prev_kvs: [] };
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 2 && wireType === 0) response.deleted = reader.varint();
    else if (field === 3 && wireType === 2) response.prev_kvs.push(decodeKeyValue(reader.bytes()));
    else reader.skip(wireType);
  }
  return response;
}

function decodeResponseOp(bytes: Buffer): ResponseOp {
  const reader = new Reader(bytes);
  const op: ResponseOp = {};
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 1 && wireType === 2) op.response_range = decodeRangeResponse(reader.bytes());
    else if (field === 2 && wireType === 2) {
      reader.bytes();
      op.response_put = {};
    } else if (field === 3 && wireType === 2) op.response_delete_range = decodeDeleteRange(reader.bytes());
    else reader.skip(wireType);
  }
  return op;
}

export function decodeTxnResponse(bytes: Buffer): TxnResponse {
  const reader = new Reader(bytes);
  const response: TxnResponse = { header: { revision: 0 }, succeeded: false, responses: [] };
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 1 && wireType === 2) response.header = decodeHeader(reader.bytes());
    else if (field === 2 && wireType === 0) response.succeeded = reader.varint() !== 0;
    else if (field === 3 && wireType === 2) response.responses.push(decodeResponseOp(reader.bytes()));
    else reader.skip(wireType);
  }
  return response;
}

export function decodeCompactionResponse(bytes: Buffer): CompactionResponse {
  const reader = new Reader(bytes);
  let header = { revision: 0 };
  for (let tag = reader.tag(); tag; tag = reader.tag())
    if (tag[0] === 1 && tag[1] === 2) header = decodeHeader(reader.bytes());
    else reader.skip(tag[1]);
  return { header };
}

export interface WatchEvent {
  type: 'Put' | 'Delete';
  kv: KeyValue;
  prev_kv?: KeyValue;
}

export interface WatchResponse {
  header: { revision: number };
  created: boolean;
  canceled: boolean;
  compact_revision: number;
  cancel_reason: string;
  events: WatchEvent[];
}

/** A WatchRequest holding a create_request for `[key, range_end)` from `start_revision`, with previous values. */
export function encodeWatchCreate(key: Buffer, rangeEnd: Buffer, startRevision: number): Uint8Array {
  const create = new Writer()
    .bytesField(1, key)
    .bytesField(2, rangeEnd)
    .varintField(3, startRevision)
    .boolField(6, true)
    .finish();
  return new Writer().bytesField(1, create, true).finish();
}

function decodeEvent(bytes: Buffer): WatchEvent {
  const reader = new Reader(bytes);
  const event: WatchEvent = { type: 'Put', kv: decodeKeyValue(empty) };
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 1 && wireType === 0) event.type = reader.varint() === 1 ? 'Delete' : 'Put';
    else if (field === 2 && wireType === 2) event.kv = decodeKeyValue(reader.bytes());
    else if (field === 3 && wireType === 2) event.prev_kv = decodeKeyValue(reader.bytes());
    else reader.skip(wireType);
  }
  return event;
}

export function decodeWatchResponse(bytes: Buffer): WatchResponse {
  const reader = new Reader(bytes);
  const response: WatchResponse = {
    header: { revision: 0 },
    created: false,
    canceled: false,
    compact_revision: 0,
    cancel_reason: '',
    events: [],
  };
  for (let tag = reader.tag(); tag; tag = reader.tag()) {
    const [field, wireType] = tag;
    if (field === 1 && wireType === 2) response.header = decodeHeader(reader.bytes());
    else if (field === 3 && wireType === 0) response.created = reader.varint() !== 0;
    else if (field === 4 && wireType === 0) response.canceled = reader.varint() !== 0;
    else if (field === 5 && wireType === 0) response.compact_revision = reader.varint();
    else if (field === 6 && wireType === 2) response.cancel_reason = reader.bytes().toString('utf8');
    else if (field === 11 && wireType === 2) response.events.push(decodeEvent(reader.bytes()));
    else reader.skip(wireType);
  }
  return response;
}
