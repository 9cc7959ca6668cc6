// pako ships no type declarations; this covers what the zlib score uses.

declare module "pako" {
  /** zlib's deflate (with the zlib header and checksum), at the default level. */
  export function deflate(data: Uint8Array): Uint8Array;
}
