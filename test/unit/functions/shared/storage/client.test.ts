import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../../functions/shared/storage/client.js';

describe('createDocumentClient', () => {
  it('leaves out the logger middleware, which copies every item for a logger nobody set', () => {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:8000' });
    const middleware = client.middlewareStack.identify().join('\n');

    expect(middleware).not.toContain('loggerMiddleware');
    // Everything a request needs is still there.
    expect(middleware).toContain('httpSigningMiddleware');
    expect(middleware).toContain('retryMiddleware');
    expect(middleware).toContain('deserializerMiddleware');
    client.destroy();
  });
});
