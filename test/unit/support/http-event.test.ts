import { describe, expect, it } from 'vitest';
import { buildEvent } from '../../support/http-event.js';

describe('buildEvent', () => {
  it('sends an object body as JSON text with application/json, as the widgets do', () => {
    const event = buildEvent({ method: 'POST', path: '/api/comment', body: { comment: 'hi' } });

    expect(event.headers['content-type']).toBe('application/json');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe('{"comment":"hi"}');
  });

  it('sends no content type, and the body in base64, when the content type is null', () => {
    const event = buildEvent({
      method: 'POST',
      path: '/api/comment',
      body: { comment: 'hi' },
      contentType: null,
    });

    expect(event.headers).not.toHaveProperty('content-type');
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? '', 'base64').toString('utf8')).toBe('{"comment":"hi"}');
  });

  it('passes a text content type as text and another one in base64', () => {
    const text = buildEvent({
      method: 'POST',
      path: '/p',
      body: 'a=1',
      contentType: 'text/plain;charset=UTF-8',
    });
    const binary = buildEvent({
      method: 'POST',
      path: '/p',
      body: 'a=1',
      contentType: 'application/octet-stream',
    });

    expect([text.isBase64Encoded, text.body]).toEqual([false, 'a=1']);
    expect([binary.isBase64Encoded, binary.body]).toEqual([true, Buffer.from('a=1').toString('base64')]);
  });

  it('encodes a JSON body in base64 when asked, and sends neither body nor content type without a body', () => {
    const encoded = buildEvent({ method: 'PUT', path: '/p', body: { like: true }, base64: true });
    const bare = buildEvent({ method: 'DELETE', path: '/p' });

    expect(encoded.headers['content-type']).toBe('application/json');
    expect(encoded.body).toBe(Buffer.from('{"like":true}').toString('base64'));
    expect(encoded.isBase64Encoded).toBe(true);
    expect(bare.body).toBeUndefined();
    expect(bare.isBase64Encoded).toBe(false);
    expect(bare.headers).not.toHaveProperty('content-type');
  });
});
