/**
 * The redirect form's checks, mirroring shared/src/redirects.rs (`parse_origin`,
 * `parse_destination`, `parse_rule`) and tested against the same vectors
 * (../shared/testdata/validation.json: `redirect_origin`, `redirect_rule`); change them together.
 * The server checks again; this only lets the form say what is wrong while the owner types.
 * Messages are i18n keys with their values; the pt-BR catalogue holds the spec's texts.
 */
import { z } from 'zod';
import { issueMessage } from '@/lib/validation';

export const MAX_URL = 255;

export interface Issue {
  key: string;
  values?: Record<string, string | number>;
}

export type Parsed = { ok: true; value: string } | { ok: false; issue: Issue };

export type RuleResult =
  | { ok: true; from: string; to: string; warning: Issue | null }
  | { ok: false; field: 'from' | 'to'; issue: Issue };

const ORIGIN_CHAR = /^[A-Za-z0-9._/*-]$/;
const WHITESPACE = /\s/;
// Rust's char::is_control (Unicode Cc) and characters that would break out of an attribute.
const BAD_DESTINATION_CHAR = /^[\p{Cc}<>"\\`]$/u;

const fail = (key: string, values?: Issue['values']): Parsed => ({
  ok: false,
  issue: values ? { key, values } : { key },
});

/** Length in characters (code points), as Rust's `chars().count()`. */
const length = (s: string) => [...s].length;

/** A leading slash, repeated slashes collapsed, no trailing slash except on `/` and before `*`. */
export function normalizeOrigin(s: string): string {
  if (s === '*') return '*';
  let out = '';
  for (const c of `/${s}`) {
    if (c === '/' && out.endsWith('/')) continue;
    out += c;
  }
  return out.length > 1 && out.endsWith('/') ? out.slice(0, -1) : out;
}

/** Origin: required, no spaces, only letters, digits and `. _ / * -`, 255 at most, `*` only last. */
export function parseOrigin(raw: string): Parsed {
  const s = raw.trim();
  if (s === '') return fail('redirects.errors.fromRequired');
  if (WHITESPACE.test(s)) return fail('redirects.errors.noSpaces');
  const bad = [...s].find((c) => !ORIGIN_CHAR.test(c));
  if (bad !== undefined) return fail('redirects.errors.invalidChar', { c: bad });
  if (length(s) > MAX_URL) return fail('redirects.errors.tooLong', { max: MAX_URL });
  const star = s.indexOf('*');
  if (star !== -1 && star !== s.length - 1) return fail('redirects.errors.starAtEnd');
  return { ok: true, value: normalizeOrigin(s) };
}

/** Destination: required, no spaces, 255 at most; an http(s) URL or a path. */
export function parseDestination(raw: string): Parsed {
  const s = raw.trim();
  if (s === '') return fail('redirects.errors.toRequired');
  if (WHITESPACE.test(s)) return fail('redirects.errors.noSpaces');
  if (length(s) > MAX_URL) return fail('redirects.errors.tooLong', { max: MAX_URL });
  if (s.startsWith('http://') || s.startsWith('https://')) {
    // The WHATWG URL parser, which the Rust `url` crate follows too.
    try {
      new URL(s);
      return { ok: true, value: s };
    } catch {
      return fail('redirects.errors.badUrl');
    }
  }
  const bad = [...s].find((c) => BAD_DESTINATION_CHAR.test(c));
  if (bad !== undefined) return fail('redirects.errors.invalidChar', { c: bad });
  return { ok: true, value: normalizeOrigin(s) };
}

/** The note for an origin that redirects the whole site (`*`), whatever the destination. */
export function originWarning(fromRaw: string): Issue | null {
  const from = parseOrigin(fromRaw);
  return from.ok && from.value === '*' ? { key: 'redirects.wholeSiteWarning' } : null;
}

/** The whole rule as it would be saved; a rule that redirects to itself is refused. */
export function parseRule(fromRaw: string, toRaw: string): RuleResult {
  const from = parseOrigin(fromRaw);
  if (!from.ok) return { ok: false, field: 'from', issue: from.issue };
  const to = parseDestination(toRaw);
  if (!to.ok) return { ok: false, field: 'to', issue: to.issue };
  if (from.value === to.value || (!from.value.endsWith('*') && normalizeOrigin(to.value) === from.value)) {
    return { ok: false, field: 'to', issue: { key: 'redirects.errors.sameUrl' } };
  }
  return { ok: true, from: from.value, to: to.value, warning: originWarning(from.value) };
}

/**
 * The redirect form's zod schema: `parseRule` on both fields, the issue on the field it names
 * (messages through `issueMessage`, so "O caractere ? …" keeps its value). The output is the
 * rule as the server stores it.
 */
export const redirectRuleSchema = z.object({ from: z.string(), to: z.string() }).transform((value, ctx) => {
  const rule = parseRule(value.from, value.to);
  if (!rule.ok) {
    ctx.addIssue({
      code: 'custom',
      path: [rule.field],
      message: issueMessage(rule.issue.key, rule.issue.values),
    });
    return z.NEVER;
  }
  return { from: rule.from, to: rule.to };
});
export type RedirectRuleInput = z.input<typeof redirectRuleSchema>;
