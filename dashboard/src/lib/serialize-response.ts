/**
 * The "Response" box of failed deploys, unpublishes and domain removals (spec 1 §8): the server's answer
 * serialized as it came, status included. The fetch wrapper has already parsed the JSON error
 * body into an ApiError; this puts its fields back in the body's own shape.
 */
import { ApiError } from './api-client';

export function serializeResponse(error: unknown): string {
  if (error instanceof ApiError) {
    const body: Record<string, unknown> = { status: error.status, error: error.code, message: error.message };
    if (error.field !== undefined) body.field = error.field;
    if (Object.keys(error.params).length > 0) body.params = error.params;
    if (error.details.length > 0) body.details = error.details;
    return JSON.stringify(body, null, 2);
  }
  // No answer at all (offline, connection refused): what the browser said.
  if (error instanceof Error) return JSON.stringify({ error: error.name, message: error.message }, null, 2);
  return JSON.stringify({ error: String(error) }, null, 2);
}
