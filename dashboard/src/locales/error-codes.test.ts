/**
 * Every error code the server can send (shared/testdata/error-codes.json, written from the
 * server's `ErrorCode` enum and checked against its OpenAPI document by the server's tests)
 * has a translation in both catalogues, and the two name the same values.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import ptBR from './pt-BR.json';

const codesPath = fileURLToPath(new URL('../../../shared/testdata/error-codes.json', import.meta.url));
const codes = JSON.parse(readFileSync(codesPath, 'utf8')) as string[];

const catalogues: Record<string, Record<string, unknown>> = { en: en.errors, 'pt-BR': ptBR.errors };

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();
}

describe('error codes', () => {
  it('reads the list of codes', () => {
    expect(codes.length).toBeGreaterThan(100);
    expect(codes).toContain('slug_taken');
    expect(codes).toContain('font_unavailable');
  });

  it.each(Object.keys(catalogues))('every code has a %s translation', (language) => {
    const catalogue = catalogues[language] ?? {};
    const missing = codes.filter((code) => typeof catalogue[code] !== 'string' || catalogue[code] === '');
    expect(missing).toEqual([]);
  });

  it('no catalogue translates a code the server does not send', () => {
    for (const catalogue of Object.values(catalogues)) {
      const extra = Object.keys(catalogue).filter((key) => key !== 'context' && !codes.includes(key));
      expect(extra).toEqual([]);
    }
  });

  it('pt-BR and en fill in the same values', () => {
    const text = (catalogue: Record<string, unknown>, code: string) => {
      const value = catalogue[code];
      return typeof value === 'string' ? value : '';
    };
    for (const code of codes) {
      expect([code, placeholders(text(ptBR.errors, code))]).toEqual([
        code,
        placeholders(text(en.errors, code)),
      ]);
    }
  });

  it("keeps the spec's own messages", () => {
    expect(en.errors.domain_invalid).toBe('invalid domain');
    expect(en.errors.slug_invalid).toBe('Slug must contain only letters, numbers and dashes');
    expect(en.errors.project_name_required).toBe('Project name is required');
    expect(en.errors.block_name_required).toBe('Block Name is required');
    expect(en.errors.block_name_taken).toBe('Block Name already exists');
    expect(ptBR.errors.redirect_from_taken).toBe('Já existe um redirecionamento para esta url de origem.');
    expect(ptBR.errors.redirect_same).toBe('URL destino deve ser diferente da url de origem');
    expect(ptBR.errors.images_only).toBe('Erro: envie somente imagens em JPG ou PNG.');
  });
});
