// A QR code as inline SVG: one <rect> for the light background and one <path> of the dark modules,
// built from uqr's module matrix. Nothing is drawn on a canvas or loaded from a data: URL, so the
// console's Content-Security-Policy (img-src 'self') has nothing to allow.
import { useMemo } from 'react';
import { encode } from 'uqr';

/** The path of the dark modules: a unit square per module, at its column and row. */
export function modulesPath(data: boolean[][]): string {
  let path = '';
  data.forEach((row, y) => row.forEach((dark, x) => {
    if (dark) path += `M${x} ${y}h1v1h-1z`;
  }));
  return path;
}

export function QrCode({ value, title, size = 200 }: { value: string; title: string; size?: number }) {
  // Medium error correction and the four-module quiet zone scanners expect (ISO/IEC 18004).
  const qr = useMemo(() => encode(value, { ecc: 'M', border: 4 }), [value]);
  return (
    <svg className="qr" role="img" aria-label={title} viewBox={`0 0 ${qr.size} ${qr.size}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={modulesPath(qr.data)} fill="#000" />
    </svg>
  );
}
