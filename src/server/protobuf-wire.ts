/**
 * The Protocol Buffers wire format, read side (https://protobuf.dev/programming-guides/encoding/):
 * a message is a sequence of (tag, value) records, tag = field number << 3 | wire type, with wire
 * types 0 (varint), 1 (fixed 64-bit), 2 (length-delimited: bytes, strings, messages, packed
 * repeated scalars) and 5 (fixed 32-bit). Groups (3, 4) are not used by Kubernetes' gogo-generated
 * messages and are rejected. Used by protobuf.ts (request bodies) and by the schema generator.
 */

/** One record of a message: its field number, wire type and raw value. */
export interface WireField {
  no: number;
  /** 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32. */
  wireType: 0 | 1 | 2 | 5;
  /** Varints as unsigned 64-bit BigInt; fixed64/fixed32 as their 8/4 bytes; length-delimited as the bytes. */
  value: bigint | Uint8Array;
}

/** A malformed message (truncated, bad wire type). */
export class WireError extends Error {}

function varint(buf: Uint8Array, at: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && shift < 70n; i++) {
    v |= BigInt(buf[i] & 0x7f) << shift;
    if (!(buf[i] & 0x80)) return [v, i + 1];
    shift += 7n;
  }
  throw new WireError('truncated varint');
}

/** Splits a message into its records, in wire order. @throws WireError */
export function readFields(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = varint(buf, at);
    at = next;
    const no = Number(tag >> 3n);
    const wireType = Number(tag & 7n);
    if (no < 1) throw new WireError(`invalid field number ${no}`);
    if (wireType === 0) {
      const [v, n] = varint(buf, at);
      out.push({ no, wireType, value: v });
      at = n;
    } else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      if (at + size > buf.length) throw new WireError('truncated fixed-width value');
      out.push({ no, wireType, value: buf.subarray(at, at + size) });
      at += size;
    } else if (wireType === 2) {
      const [len, n] = varint(buf, at);
      const end = n + Number(len);
      if (end > buf.length) throw new WireError(`field ${no}: length ${len} past the end of the message`);
      out.push({ no, wireType, value: buf.subarray(n, end) });
      at = end;
    } else throw new WireError(`field ${no}: unsupported wire type ${wireType}`);
  }
  return out;
}

/** The varints of a packed repeated scalar field. */
export function packedVarints(buf: Uint8Array): bigint[] {
  const out: bigint[] = [];
  for (let at = 0; at < buf.length;) {
    const [v, n] = varint(buf, at);
    out.push(v);
    at = n;
  }
  return out;
}

/** Two's-complement reinterpretation of a 64-bit varint as signed (int32/int64 fields). */
export function signed64(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

/** The UTF-8 text of a length-delimited value. */
export function utf8(b: Uint8Array): string {
  return new TextDecoder().decode(b);
}
