// Which ink reads on an accent colour: the preview of the portal's header picks white or near-black
// by WCAG contrast, so any accent an owner types stays legible.
const HEX = /^#[0-9a-fA-F]{6}$/;
/** The accent the portal falls back to (platform/pages/send-page.ts). */
export const FALLBACK_ACCENT = '#4f46e5';

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

const WHITE = '#ffffff';
const INK = '#1f2328';

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** White text on dark accents and near-black on light ones, whichever reads better. */
export const textOn = (accent: string): string => (contrast(accent, WHITE) >= contrast(accent, INK) ? WHITE : INK);

export const validAccent = (accent: string) => HEX.test(accent);
