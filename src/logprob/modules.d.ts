// pako ships no type declarations; this covers what the zlib score uses: its port of zlib's own functions
// (pako's `lib/zlib/*`, which its package exports), and `deflate`, against which the tests hold them.

declare module "pako" {
  /** zlib's deflate (with the zlib header and checksum), at the default level. */
  export function deflate(data: Uint8Array): Uint8Array;
}

declare module "pako/lib/zlib/zstream.js" {
  /** zlib's z_stream: the input and output buffers, their positions and what is left, and the totals. */
  export default class ZStream {
    input: Uint8Array | null;
    next_in: number;
    avail_in: number;
    total_in: number;
    output: Uint8Array | null;
    next_out: number;
    avail_out: number;
    total_out: number;
  }
}

declare module "pako/lib/zlib/deflate.js" {
  import ZStream from "pako/lib/zlib/zstream.js";
  export function deflateInit2(
    strm: ZStream,
    level: number,
    method: number,
    windowBits: number,
    memLevel: number,
    strategy: number,
  ): number;
  export function deflateReset(strm: ZStream): number;
  export function deflate(strm: ZStream, flush: number): number;
}
