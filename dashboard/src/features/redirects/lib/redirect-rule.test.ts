import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import ptBR from '@/locales/pt-BR.json';
import { readIssueMessage } from '@/lib/validation';
import { parseOrigin, parseRule, redirectRuleSchema, type Issue } from './redirect-rule';

interface Vectors {
  redirect_origin: { valid: [string, string][]; invalid: [string, string][] };
  redirect_rule: {
    valid: [string, string, string, string, string | null][];
    invalid: [string, string, 'from' | 'to', string][];
  };
}

// Path relative to dashboard/: ../shared/testdata/validation.json
const vectorsPath = fileURLToPath(new URL('../../../../../shared/testdata/validation.json', import.meta.url));
const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8')) as Vectors;

// The server's messages are the spec's Portuguese ones: the pt-BR catalogue must say the same.
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'pt-BR',
    resources: { 'pt-BR': { translation: ptBR }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});
const text = (issue: Issue) => i18n.t(issue.key, issue.values ?? {});

describe('parseOrigin', () => {
  it.each(vectors.redirect_origin.valid)('stores %j as %j', (input, expected) => {
    expect(parseOrigin(input)).toEqual({ ok: true, value: expected });
  });

  it.each(vectors.redirect_origin.invalid)('refuses %j with %j', (input, message) => {
    const result = parseOrigin(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(text(result.issue)).toBe(message);
  });
});

describe('parseRule', () => {
  it.each(vectors.redirect_rule.valid)('accepts %j → %j', (from, to, storedFrom, storedTo, warning) => {
    const result = parseRule(from, to);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([result.from, result.to]).toEqual([storedFrom, storedTo]);
    expect(result.warning ? text(result.warning) : null).toBe(warning);
  });

  it.each(vectors.redirect_rule.invalid)('refuses %j → %j on %s', (from, to, field, message) => {
    const result = parseRule(from, to);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.field).toBe(field);
    expect(text(result.issue)).toBe(message);
  });
});

// The same vectors through the zod schema the redirect form validates with.
describe('redirectRuleSchema (zod)', () => {
  it.each(vectors.redirect_rule.valid)('accepts %j → %j', (from, to, storedFrom, storedTo) => {
    expect(redirectRuleSchema.parse({ from, to })).toEqual({ from: storedFrom, to: storedTo });
  });

  it.each(vectors.redirect_rule.invalid)('refuses %j → %j on %s', (from, to, field, message) => {
    const result = redirectRuleSchema.safeParse({ from, to });
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual([field]);
    const { key, values } = readIssueMessage(issue?.message ?? '');
    expect(i18n.t(key, values)).toBe(message);
  });
});
