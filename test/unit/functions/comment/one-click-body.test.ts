import { describe, expect, it } from 'vitest';
import { isOneClickBody } from '../../../../functions/comment/one-click-body.js';

const multipart = (boundary: string, parts: Array<[string, string]>, newline = '\r\n') =>
  parts
    .map(
      ([name, value]) =>
        `--${boundary}${newline}Content-Disposition: form-data; name="${name}"${newline}${newline}${value}${newline}`,
    )
    .join('') + `--${boundary}--${newline}`;

describe('isOneClickBody', () => {
  it.each([
    ['application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click'],
    ['application/x-www-form-urlencoded; charset=utf-8', 'List-Unsubscribe=One-Click\r\n'],
    ['Application/X-WWW-Form-Urlencoded', 'other=1&List-Unsubscribe=One-Click'],
    [undefined, 'List-Unsubscribe=One-Click'],
    ['text/plain', 'List-Unsubscribe=One-Click'],
    ['multipart/form-data; boundary=b1', multipart('b1', [['List-Unsubscribe', 'One-Click']])],
    [
      'multipart/form-data; boundary="a b"',
      multipart('a b', [
        ['x', 'y'],
        ['List-Unsubscribe', 'One-Click'],
      ]),
    ],
    ['multipart/form-data; boundary=b2', multipart('b2', [['List-Unsubscribe', 'One-Click']], '\n')],
  ])('is true for %s %j', (type, body) => {
    expect(isOneClickBody(type, body)).toBe(true);
  });

  it.each([
    ['application/x-www-form-urlencoded', ''],
    ['application/x-www-form-urlencoded', 'List-Unsubscribe=one-click'],
    ['application/x-www-form-urlencoded', 'List-Unsubscribe-Post=One-Click'],
    ['application/json', '{"List-Unsubscribe":"One-Click"}'],
    ['application/json', 'List-Unsubscribe=One-Click'],
    ['multipart/form-data', multipart('b1', [['List-Unsubscribe', 'One-Click']])],
    ['multipart/form-data; boundary=b1', multipart('b1', [['List-Unsubscribe', 'Later']])],
    ['multipart/form-data; boundary=b1', multipart('b1', [['Unsubscribe', 'One-Click']])],
    ['multipart/form-data; boundary=zz', multipart('b1', [['List-Unsubscribe', 'One-Click']])],
  ])('is false for %s %j', (type, body) => {
    expect(isOneClickBody(type, body)).toBe(false);
  });
});
