// The hand-written KV codec against protobufjs reading etcd's own rpc.proto (testdata/etcd-proto, the copy etcd3
// shipped): what we encode decodes to the intended request, and the answers protobufjs encodes (int64 above 2^32)
// decode to the same fields here.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import {
  decodeCompactionResponse,
  decodeRangeResponse,
  decodeTxnResponse,
  decodeWatchResponse,
  encodeCompactionRequest,
  encodeRangeRequest,
  encodeWatchCreate,
  encodeTxnRequest,
  type TxnRequest,
} from './kv-wire';

const protoDir = join(dirname(fileURLToPath(import.meta.url)), 'testdata', 'etcd-proto');
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(protoDir, target.replace(/^.*\//, ''));
root.loadSync('rpc.proto', { keepCase: true });
const type = (name: string) => root.lookupType(`etcdserverpb.${name}`);
// Defaults filled in, as etcd reads a field left out (proto3 writes no zero, enum zeros included).
const plain = { longs: Number, bytes: Buffer, enums: String, defaults: true, oneofs: true } as const;

const b = (text: string) => Buffer.from(text);
const big = 2 ** 40 + 3;

describe('etcd KV wire codec', () => {
  it('encodes a range request as protobufjs reads it', () => {
    const bytes = encodeRangeRequest({
      key: b('/registry/a'),
      range_end: b('/registry/b'),
      limit: 500,
      revision: big,
      count_only: true,
    });
    const decoded = type('RangeRequest').toObject(type('RangeRequest').decode(bytes), plain);
    expect(decoded).toMatchObject({
      keys_only: false,
      key: b('/registry/a'),
      range_end: b('/registry/b'),
      limit: 500,
      revision: big,
      count_only: true,
    });
  });

  it('encodes transactions with every compare and operation the store sends', () => {
    const request: TxnRequest = {
      compare: [
        { key: b('k1'), target: 'Version', result: 'Equal', version: 0 },
        { key: b('k2'), target: 'Mod', result: 'Equal', mod_revision: big },
        { key: b('k3'), target: 'Value', result: 'Equal', value: b('{"value":1}') },
        { key: b('k4'), target: 'Version', result: 'Greater', version: 0 },
      ],
      success: [
        { request_put: { key: b('k1'), value: b('{"a":"é"}') } },
        { request_delete_range: { key: b('/r/'), range_end: b('/r0') } },
        { request_delete_range: { key: b('k4'), prev_kv: true } },
      ],
      failure: [{ request_range: { key: b('k1') } }],
    };
    const decoded = type('TxnRequest').toObject(type('TxnRequest').decode(encodeTxnRequest(request)), plain);
    expect(decoded).toMatchObject({
      compare: [
        { key: b('k1'), target: 'Version', result: 'Equal', version: 0, target_union: 'version' },
        { key: b('k2'), target: 'Mod', result: 'Equal', mod_revision: big, target_union: 'mod_revision' },
        { key: b('k3'), target: 'Value', result: 'Equal', value: b('{"value":1}'), target_union: 'value' },
        { key: b('k4'), target: 'Version', result: 'Greater', version: 0, target_union: 'version' },
      ],
      success: [
        { request_put: { key: b('k1'), value: b('{"a":"é"}') }, request: 'request_put' },
        {
          request_delete_range: { key: b('/r/'), range_end: b('/r0') },
          request: 'request_delete_range',
        },
        {
          request_delete_range: { key: b('k4'), range_end: b(''), prev_kv: true },
          request: 'request_delete_range',
        },
      ],
      failure: [
        {
          request_range: { key: b('k1'), limit: 0, revision: 0, count_only: false },
          request: 'request_range',
        },
      ],
    });
  });

  it('decodes range and transaction answers', () => {
    const kv = {
      key: b('/registry/configmaps/default/a'),
      create_revision: 7,
      mod_revision: big,
      version: 2,
      value: b('{"kind":"ConfigMap"}'),
    };
    const header = { cluster_id: 1, member_id: 2, revision: big + 1, raft_term: 3 };
    const range = type('RangeResponse');
    const rangeBytes = range
      .encode(range.fromObject({ header, kvs: [kv, kv], more: true, count: 12 }))
      .finish();
    expect(decodeRangeResponse(Buffer.from(rangeBytes))).toEqual({
      header: { revision: big + 1 },
      kvs: [kv, kv],
      more: true,
      count: 12,
    });
    const txn = type('TxnResponse');
    const txnBytes = txn
      .encode(
        txn.fromObject({
          header,
          succeeded: true,
          responses: [
            { response_put: { header } },
            { response_delete_range: { header, deleted: 1, prev_kvs: [kv] } },
            { response_range: { header, kvs: [] } },
          ],
        }),
      )
      .finish();
    expect(decodeTxnResponse(Buffer.from(txnBytes))).toEqual({
      header: { revision: big + 1 },
      succeeded: true,
      responses: [
        { response_put: {} },
        { response_delete_range: { deleted: 1, prev_kvs: [kv] } },
        { response_range: { header: { revision: big + 1 }, kvs: [], more: false, count: 0 } },
      ],
    });
    // An empty answer (a failed compare with nothing to read) is every field's default.
    expect(decodeTxnResponse(Buffer.alloc(0))).toEqual({
      header: { revision: 0 },
      succeeded: false,
      responses: [],
    });
  });

  it("encodes a watch's create request and decodes its answers", () => {
    const request = type('WatchRequest');
    const decoded = request.toObject(
      request.decode(encodeWatchCreate(b('/registry#'), b('/registry0'), big)),
      plain,
    );
    expect(decoded).toMatchObject({
      create_request: {
        key: b('/registry#'),
        range_end: b('/registry0'),
        start_revision: big,
        prev_kv: true,
        progress_notify: false,
        filters: [],
      },
      request_union: 'create_request',
    });
    const kv = { key: b('/registry/a'), create_revision: 5, mod_revision: big, version: 2, value: b('{}') };
    const prev = { ...kv, mod_revision: 5, version: 1 };
    const response = type('WatchResponse');
    const header = { revision: big };
    const bytes = (value: object) => Buffer.from(response.encode(response.fromObject(value)).finish());
    expect(
      decodeWatchResponse(
        bytes({
          header,
          watch_id: 0,
          events: [
            { type: 'Put', kv, prev_kv: prev },
            { type: 'Delete', kv: { ...kv, value: b('') } },
          ],
        }),
      ),
    ).toEqual({
      header,
      created: false,
      canceled: false,
      compact_revision: 0,
      cancel_reason: '',
      events: [
        { type: 'Put', kv, prev_kv: prev },
        { type: 'Delete', kv: { ...kv, value: b('') } },
      ],
    });
    expect(
      decodeWatchResponse(bytes({ header, canceled: true, compact_revision: 9, cancel_reason: 'compacted' })),
    ).toMatchObject({ canceled: true, compact_revision: 9, cancel_reason: 'compacted', events: [] });
    expect(decodeWatchResponse(bytes({ header, created: true }))).toMatchObject({
      created: true,
      events: [],
    });
  });

  it('encodes a compaction request and decodes its answer', () => {
    const request = type('CompactionRequest');
    expect(
      request.toObject(request.decode(encodeCompactionRequest({ revision: big, physical: true })), plain),
    ).toEqual({ revision: big, physical: true });
    expect(request.toObject(request.decode(encodeCompactionRequest({ revision: 5 })), plain)).toEqual({
      revision: 5,
      physical: false,
    });
    const response = type('CompactionResponse');
    const header = { cluster_id: 1, member_id: 2, revision: big, raft_term: 3 };
    const bytes = Buffer.from(response.encode(response.fromObject({ header })).finish());
    expect(decodeCompactionResponse(bytes)).toEqual({ header: { revision: big } });
    expect(decodeCompactionResponse(Buffer.alloc(0))).toEqual({ header: { revision: 0 } });
  });
});
