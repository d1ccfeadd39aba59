/** Writes one error line as JSON, the shape CloudWatch Logs Insights filters on (`level`, `message`). */
export function logError(message: string, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: 'error', message, ...fields }));
}
