/** The inline styles of the default mails (mail clients drop `<style>` blocks), and their site link. */
export const mailStyles = {
  box: 'max-width:640px;margin:24px auto;padding:0 16px 12px;border-top:2px solid #12addb;font:14px/1.7 sans-serif',
  heading: 'font-size:16px;font-weight:normal;border-bottom:1px solid #ddd;padding:12px 0 8px',
  quote: 'background:#f5f5f5;padding:8px 14px;margin:12px 0;word-wrap:break-word',
  small: 'color:#888;font-size:12px',
} as const;

/** The site's name, linked to SITE_URL when it is set (nunjucks). */
export const siteLink = `{% if site.url %}<a href="{{ site.url }}">{{ site.name }}</a>{% else %}{{ site.name }}{% endif %}`;
