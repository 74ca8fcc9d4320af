// CRC-32 (IEEE 802.3, the zlib polynomial). Written out rather than taken from node:zlib
// because zlib.crc32 only exists from Node 20.15 and the SDK supports every Node 20.
const table = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  table[n] = c >>> 0;
}

/**
 * CRC-32 of the ASCII text `text` (characters above 0x7f are not expected), or of its first `end`
 * characters: cheaper than CRC-32 of a slice, whose characters are read through its parent.
 */
export function crc32(text: string, end = text.length): number {
  let crc = 0xffffffff;
  for (let i = 0; i < end; i++) {
    crc = table[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
