import { describe, expect, it } from 'vitest';
import { siteVariables } from '../../../../../functions/notify/templates/site.js';
import { testConfig } from '../../../../support/test-config.js';

describe('siteVariables', () => {
  const site = testConfig({ SITE_NAME: 'Notes', SITE_URL: 'https://blog.example/' });

  it('links the comment on its page', () => {
    expect(siteVariables(site, { url: '/posts/a/', id: 'C1' })).toEqual({
      name: 'Notes',
      url: 'https://blog.example/',
      postUrl: 'https://blog.example/posts/a/#C1',
    });
  });

  it('never leads off the site from a page path the widget sent', () => {
    for (const url of ['//evil.example/phish', 'https://evil.example/', 'javascript:alert(1)']) {
      expect(new URL(siteVariables(site, { url, id: 'C1' }).postUrl).origin).toBe('https://blog.example');
    }
  });

  it('has no page address without SITE_URL', () => {
    expect(siteVariables(testConfig(), { url: '/posts/a/', id: 'C1' })).toEqual({
      name: 'Marginalia',
      url: '',
      postUrl: '',
    });
  });
});
