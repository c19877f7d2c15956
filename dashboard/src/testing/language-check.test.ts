import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import ptBR from '@/locales/pt-BR.json';
import { languageFindings } from './language-check';

describe('languageFindings', () => {
  it('finds an English-only catalogue value on a pt-BR screen, and the reverse', () => {
    expect(languageFindings(`Vitrine\n${en.header.logout}\n${ptBR.projects.title}`, 'pt-BR', [])).toEqual([
      { kind: 'foreign', text: en.header.logout },
    ]);
    expect(languageFindings(`Vitrine\n${en.header.logout}\n${ptBR.projects.title}`, 'en', [])).toEqual([
      { kind: 'foreign', text: ptBR.projects.title },
    ]);
  });

  it('passes a screen whose text is all in its own language', () => {
    const pt = [ptBR.header.logout, ptBR.projects.title, ptBR.common.save].join('\n');
    const english = [en.header.logout, en.projects.title, en.common.save].join('\n');
    expect(languageFindings(pt, 'pt-BR', [])).toEqual([]);
    expect(languageFindings(english, 'en', [])).toEqual([]);
  });

  it('matches a value with placeholders whatever fills them, on word boundaries only', () => {
    const updated = en.projects.updatedAt.replace('{{date}}', '25/11/2026');
    expect(languageFindings(`Café\n${updated}`, 'pt-BR', [])).toContainEqual({
      kind: 'foreign',
      text: en.projects.updatedAt,
    });
    // "Save" inside a longer word is not the catalogue's "Save".
    expect(languageFindings(`Un${en.common.save.toLowerCase()}x`, 'pt-BR', [])).toEqual([]);
  });

  it('ignores user content and the values both catalogues share', () => {
    expect(
      languageFindings(`Projeto ${en.common.save} Demo`, 'pt-BR', [`Projeto ${en.common.save} Demo`]),
    ).toEqual([]);
    // User content is removed as whole words only: a record named "Sav" hides no "Save".
    expect(languageFindings(en.common.save, 'pt-BR', [en.common.save.slice(0, 3)])).toEqual([
      { kind: 'foreign', text: en.common.save },
    ]);
    // A word both catalogues share ("Desktop") is no leak in either language.
    expect(en.editor.topbar.desktop).toBe(ptBR.editor.topbar.desktop);
    expect(languageFindings(`Modo ${en.editor.topbar.desktop}`, 'pt-BR', [])).toEqual([]);
    // The spec's English message is English-only now: on a pt-BR screen it is a leak.
    expect(languageFindings(en.validation.blockNameRequired, 'pt-BR', [])).toContainEqual({
      kind: 'foreign',
      text: en.validation.blockNameRequired,
    });
  });

  it('flags a raw i18next key, not a host name or an address', () => {
    expect(languageFindings('Salvar\nprojects.empty_title', 'pt-BR', [])).toEqual([
      { kind: 'raw-key', text: 'projects.empty_title' },
    ]);
    expect(languageFindings('https://site.projects.example/ a@projects.io', 'pt-BR', [])).toEqual([]);
  });
});
