import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { qrDataUrl } from '../../../../../functions/shared/auth/totp-qr.js';

describe('qrDataUrl', () => {
  it('renders the text as an SVG data URL of its QR code', () => {
    const text = 'otpauth://totp/Blog:ann%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const url = qrDataUrl(text);
    const svg = Buffer.from(url.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');
    const modules = encode(text, { ecc: 'M', border: 2 }).size;

    expect(url).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1">/);
    expect(svg).toContain(`viewBox="0 0 ${modules * 10} ${modules * 10}"`);
    expect(svg).not.toContain('GEZDGNBV');
    expect(qrDataUrl(`${text}x`)).not.toBe(url);
  });
});
