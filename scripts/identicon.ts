/**
 * Avatars for local mode: a symmetric 5x5 identicon drawn from a mail hash, so the demo shows distinct faces
 * without fetching anything from libravatar.
 */

/** A hex digest (an md5 or sha256 of a mail address) that names an avatar. */
export const avatarHashPattern = /^(?:[0-9a-f]{32}|[0-9a-f]{64})$/;

/** Draws the identicon of `hash` (32 or 64 lower-case hex digits) as a small SVG document. */
export function renderIdenticon(hash: string): string {
  if (!avatarHashPattern.test(hash)) throw new Error('an identicon needs a 32 or 64 digit hex hash');
  const hue = Math.round((parseInt(hash.slice(-6), 16) / 0xffffff) * 360);
  const cells: string[] = [];
  // Fifteen bits fill the left three columns; the right two mirror them, as GitHub's identicons do.
  for (let index = 0; index < 15; index++) {
    if (parseInt(hash[index] ?? '0', 16) % 2 === 1) continue;
    const column = Math.floor(index / 5);
    const row = index % 5;
    cells.push(cell(column, row));
    if (column < 2) cells.push(cell(4 - column, row));
  }
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 70 70" width="70" height="70">' +
    `<rect width="70" height="70" fill="hsl(${hue} 45% 94%)"/>` +
    `<g fill="hsl(${hue} 55% 48%)">${cells.join('')}</g></svg>`
  );
}

function cell(column: number, row: number): string {
  return `<rect x="${10 + column * 10}" y="${10 + row * 10}" width="10" height="10"/>`;
}
