/**
 * A minimal protobuf writer (varints, length-delimited fields, doubles) for
 * encoding the OpenAPI v2 document as gnostic's `openapi.v2.Document`,
 * which kubectl downloads. Nested messages are written to their own writer
 * first and copied in with their length.
 */

const encoder = new TextEncoder();

export class ProtoWriter {
  private buf: Uint8Array<ArrayBuffer> = new Uint8Array(256);
  private len = 0;

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  private varint(value: number): void {
    this.ensure(10);
    let v = value;
    while (v > 0x7f) {
      this.buf[this.len++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.len++] = v;
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2);
    this.varint(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    return this;
  }

  /** A string field; empty strings are skipped, as proto3 does. */
  string(field: number, value: string | undefined): this {
    if (value === undefined || value === '') return this;
    return this.bytes(field, encoder.encode(value));
  }

  bool(field: number, value: boolean | undefined): this {
    if (value !== true) return this;
    this.tag(field, 0);
    this.varint(1);
    return this;
  }

  /** A non-negative integer field (lengths, counts). */
  uint(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    this.tag(field, 0);
    this.varint(value);
    return this;
  }

  double(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    this.tag(field, 1);
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 8).setFloat64(0, value, true);
    this.len += 8;
    return this;
  }

  /** A nested message built by `fill`, written even when empty (a present submessage). */
  message(field: number, fill: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    fill(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array<ArrayBuffer> {
    return this.buf.slice(0, this.len);
  }
}
