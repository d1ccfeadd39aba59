import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const markdown = new MarkdownIt({ html: true, breaks: true, linkify: true, typographer: true });

const EXTERNAL_LINK_REL = 'nofollow noreferrer noopener ugc';
const LINK_SCHEMES = ['http', 'https', 'mailto'];
const HTTP_URL = /^https?:\/\//i;
const INLINE_IMAGE_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z\d+/]+={0,2}$/i;

/** Whether a browser would leave the site for this href, once it drops the whitespace and controls it ignores. */
function isExternal(href: string): boolean {
  const compact = Array.from(href)
    .filter((char) => char > ' ')
    .join('');
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  return /^[/\\]{2}/.test(compact) || (scheme !== undefined && LINK_SCHEMES.includes(scheme));
}

function transformLink(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { target: _target, rel: _rel, ...rest } = attribs;
  if (rest.href === undefined || !isExternal(rest.href)) {
    return { tagName, attribs: rest };
  }
  return { tagName, attribs: { ...rest, target: '_blank', rel: EXTERNAL_LINK_REL } };
}

function transformImage(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { src } = attribs;
  if (src !== undefined && (HTTP_URL.test(src) || INLINE_IMAGE_URL.test(src))) {
    return { tagName, attribs: { ...attribs, loading: 'lazy' } };
  }
  const { src: _src, ...withoutSrc } = attribs;
  return { tagName, attribs: withoutSrc };
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'em',
    'del',
    's',
    'sub',
    'sup',
    'mark',
    'blockquote',
    'ul',
    'ol',
    'li',
    'code',
    'pre',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'details',
    'summary',
    'a',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'class', 'loading'],
    code: ['class'],
    ol: ['start'],
  },
  allowedClasses: {
    img: ['wl-emoji'],
    code: [/^language-[\w+#.-]+$/],
  },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'noscript', 'xmp'],
  parseStyleAttributes: false,
  transformTags: { a: transformLink, img: transformImage },
  // The scheme checks above delete refused URLs: such a link keeps its text, such an image goes entirely.
  exclusiveFilter: (frame) => {
    if (frame.attribs.href === undefined && frame.tag === 'a') {
      return 'excludeTag';
    }
    return frame.tag === 'img' && frame.attribs.src === undefined;
  },
};

/** Renders a comment's markdown to HTML that is safe to store and serve as is. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdown.render(text), sanitizeOptions);
}
