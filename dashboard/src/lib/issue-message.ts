/** Zod messages that carry values: the i18n key and its values in one string (no zod needed to read them). */

/**
 * A zod message that needs values ("O caractere {{c}} …"): the i18n key and its values in one
 * string, since a form error carries only a message. `errorText` in `@/lib/forms` reads it back.
 */
export function issueMessage(key: string, values?: Record<string, string | number>): string {
  return values ? `${key}|${JSON.stringify(values)}` : key;
}

/** The key and values of a message made by `issueMessage`. */
export function readIssueMessage(message: string): { key: string; values: Record<string, string | number> } {
  const bar = message.indexOf('|');
  if (bar === -1) return { key: message, values: {} };
  try {
    const values: unknown = JSON.parse(message.slice(bar + 1));
    if (typeof values === 'object' && values !== null) {
      return { key: message.slice(0, bar), values: values as Record<string, string | number> };
    }
  } catch {
    // Not ours: the whole text is the key.
  }
  return { key: message, values: {} };
}
