/** The projection part of a read request: what it reads back, and the names its placeholders stand for. */
export interface Projection {
  readonly ProjectionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
}

/**
 * The `ProjectionExpression` that reads back only the attributes `names` (each once, in order), with
 * the `ExpressionAttributeNames` its placeholders `#p0`, `#p1`... stand for, merged with `otherNames`
 * (the placeholders of the request's other expressions, which must not be of the form `#p<n>`).
 * Placeholders, not the names themselves: many attribute names (`url`, `status`, `time`...) are
 * DynamoDB reserved words, and a placeholder is always safe. No names: no projection (every attribute).
 */
export function projection(
  names: readonly string[],
  otherNames: Readonly<Record<string, string>> = {},
): Projection {
  // DynamoDB refuses a projection that names an attribute twice ("Two document paths overlap").
  const placeholders = Object.fromEntries([...new Set(names)].map((name, i) => [`#p${i}`, name]));
  const allNames = { ...placeholders, ...otherNames };
  return {
    ...(names.length > 0 ? { ProjectionExpression: Object.keys(placeholders).join(', ') } : {}),
    ...(Object.keys(allNames).length > 0 ? { ExpressionAttributeNames: allNames } : {}),
  };
}
