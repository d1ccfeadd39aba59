/** RFC 8058's one-click body: the field and the value a mail provider posts. */
const field = 'List-Unsubscribe';
const value = 'One-Click';

/** The value of `multipart/form-data`'s `boundary` parameter, quoted or not. */
function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** True when one part of a multipart body is the field `List-Unsubscribe` holding `One-Click`. */
function isOneClickPart(part: string): boolean {
  const blank = /\r?\n\r?\n/.exec(part);
  if (!blank) return false;
  const head = part.slice(0, blank.index);
  const content = part.slice(blank.index + blank[0].length).replace(/\r?\n$/, '');
  const named = /^content-disposition:\s*form-data\s*;(?:.*;)?\s*name="?([^";\r\n]+)"?\s*(?:;|$)/im.exec(
    head,
  );
  return named?.[1] === field && content === value;
}

/**
 * True when a POST's body is RFC 8058's one-click unsubscribe, `List-Unsubscribe=One-Click`: as a form
 * (`application/x-www-form-urlencoded`, or text with no or a plain type, which some senders use) or as a
 * field of `multipart/form-data`, the two encodings the RFC allows.
 */
export function isOneClickBody(contentType: string | undefined, body: string): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'multipart/form-data') {
    const boundary = multipartBoundary(contentType ?? '');
    return boundary !== undefined && body.split(`--${boundary}`).some(isOneClickPart);
  }
  if (type === '' || type === 'application/x-www-form-urlencoded' || type === 'text/plain') {
    return new URLSearchParams(body.trim()).getAll(field).includes(value);
  }
  return false;
}
