/** A request path read as Marginalia's resources, with or without the `/api` prefix. */
export interface ResourcePath {
  /** `comment`, `article`, ... */
  readonly resource: string;
  /** The id segment of `/comment/{id}`, decoded. */
  readonly id?: string;
}

/** Splits `/api/comment/abc` (or `/comment/abc`) into resource and id; undefined for deeper paths. */
export function parseResourcePath(path: string): ResourcePath | undefined {
  const match = /^(?:\/api)?\/([a-z]+)(?:\/([^/]+))?\/?$/.exec(path);
  if (!match?.[1]) return undefined;
  if (match[2] === undefined) return { resource: match[1] };
  try {
    return { resource: match[1], id: decodeURIComponent(match[2]) };
  } catch {
    return { resource: match[1], id: match[2] };
  }
}
