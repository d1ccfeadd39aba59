import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarkdownFeatures } from '../../../../../functions/shared/domain/render-markdown.js';

const rendererPath = '../../../../../functions/shared/domain/render-markdown.js';
const katexPath = '../../../../../functions/shared/domain/tex-to-mathml.js';
/** The modules imported since the test began: each mock only records that its module was imported. */
const loaded = new Set<string>();

const features: MarkdownFeatures = { emoji: true, sub: true, sup: true, tex: true, highlight: true };
const writeOnlyModules = () => import('../../../../../functions/shared/domain/write-only-modules.js');

describe('loadMarkdownRenderer', () => {
  beforeEach(() => {
    vi.resetModules();
    loaded.clear();
    vi.doMock(rendererPath, async (importOriginal) => {
      loaded.add('renderer');
      return importOriginal();
    });
    vi.doMock(katexPath, async (importOriginal) => {
      loaded.add('katex');
      return importOriginal();
    });
  });

  it('loads nothing before the first comment', async () => {
    const { loadMarkdownRenderer } = await writeOnlyModules();

    loadMarkdownRenderer(features);

    expect([...loaded]).toEqual([]);
  });

  it('loads the renderer but not KaTeX when the comment has no $', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);

    expect(await render('**bold** :smile:')).toBe('<p><strong>bold</strong> 😄</p>\n');
    expect([...loaded]).toEqual(['renderer']);
  });

  it('loads KaTeX and renders the formula when the comment has a $', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);

    expect(await render('$x$')).toBe('<p><math><semantics><mrow><mi>x</mi></mrow></semantics></math></p>\n');
    expect([...loaded].sort()).toEqual(['katex', 'renderer']);
  });

  it('never loads KaTeX when tex is off', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer({ ...features, tex: false });

    expect(await render('$x$')).toBe('<p>$x$</p>\n');
    expect([...loaded]).toEqual(['renderer']);
  });
});
