// uqr: no dependencies, SVG out (27 KB unminified); imported by the enrolment route on its first use (two-factor.ts).
import { renderSVG } from 'uqr';

/**
 * The QR code of `text` (an otpauth URL) as an SVG `data:` URL, for an `<img>` the pages' CSP lets in
 * (`img-src data:`). Rendered on the server: the secret it carries goes to no third party.
 */
export function qrDataUrl(text: string): string {
  // Medium error correction: a phone reads it off a dim or scaled screen.
  const svg = renderSVG(text, { ecc: 'M', border: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
