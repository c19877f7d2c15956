import { describe, expect, it } from 'vitest';
import en from './en.json';
import ptBR from './pt-BR.json';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('i18n catalogues', () => {
  it('pt-BR and en define the same keys', () => {
    expect(keys(en).sort()).toEqual(keys(ptBR).sort());
  });

  it('keep the spec texts verbatim', () => {
    expect(en.validation.projectNameRequired).toBe('Project name is required');
    expect(en.validation.slugInvalid).toBe('Slug must contain only letters, numbers and dashes');
    expect(en.validation.invalidDomain).toBe('invalid domain');
    expect(en.domains.proxyNote).toContain('If a CDN proxy is used it must be off.');
    expect(ptBR.auth.forgot.sent).toBe('mensagem enviada');
    expect(en.auth.newPassword.done).toBe('New password successfully set');
    expect(en.templates.saved).toBe('Template sucessfully saved');
    expect(en.common.error).toBe('Error');
    expect(ptBR.records.imported).toBe('{{n}} cadastros inseridos com sucesso');
    expect(en.records.form.missing).toBe('Please fill all required fields:');
    expect(en.records.bulkDeleted).toBe('Selected posts successfully deleted.');
    expect(ptBR.records.form.imageOnly).toBe('Erro: envie somente imagens em JPG ou PNG.');
    expect(en.collections.fields.saveOrder).toBe('Save order');
    expect(en.editor.topbar.savedAt).toBe('Saved {{time}}');
    expect(en.editor.topbar.saveChanges).toBe('Save changes');
    expect(en.editor.topbar.saving).toBe('Saving...');
    expect(en.editor.block.confirmRemove).toBe('Remove block?');
    expect(ptBR.editor.imageOnly).toBe('Erro: envie somente imagens em JPG ou PNG.');
    expect(en.editor.table.duplicate).toBe('the column ID already exists');
    // The spec's English messages are the English catalogue's; pt-BR says them in Portuguese.
    expect(en.editor.source.xVarsError).toBe('x-vars error: ');
    expect(en.editor.source.nameRequired).toBe('Block Name is required');
    expect(en.editor.source.nameExists).toBe('Block Name already exists');
    expect(en.editor.source.saved).toBe('saved!');
    expect(ptBR.editor.source.nameRequired).toBe('O nome do bloco é obrigatório');
    expect(en.collections.validation).toEqual({
      nameRequired: 'Name is required',
      pluralRequired: 'Plural is required',
      singularRequired: 'Singular is required',
      typeRequired: 'Type is required',
      relationRequired: 'The relation collection is required',
    });
  });

  it('say nothing in English in pt-BR: a text both share is a name, a code or a number', () => {
    // Words Brazilian Portuguese uses as they are, product and format names, and the language
    // switch's own names; anything else the two catalogues share is a text left untranslated
    // (it was how "Confirm?", "ok" and "are you sure?" reached the administrator's screens).
    const neutral = new Set([
      'Português',
      'English',
      'E-mail',
      'Slug',
      'Favicon',
      'regular',
      'Plural',
      'Singular',
      'Link',
      'Permalink',
      'Status',
      'Desktop',
      'Tablet',
      'Zoom',
      'Manual',
      'API',
      'Item',
      'HTML',
      'CSS',
      'JS',
      'Admin',
      'ID',
      'Total',
      'Host',
      'Site: {{state}}',
      'Item {{index}}: {{text}}',
      // Brands: the networks' own names.
      'WhatsApp',
      'Instagram',
      'Facebook',
      'TikTok',
      'YouTube',
      'LinkedIn',
      'X (Twitter)',
    ]);
    const leaves = (tree: Tree, prefix = ''): [string, string][] =>
      Object.entries(tree).flatMap(([key, value]) =>
        typeof value === 'string'
          ? [[`${prefix}${key}`, value] as [string, string]]
          : leaves(value, `${prefix}${key}.`),
      );
    const english = new Map(leaves(en));
    const shared = leaves(ptBR)
      .filter(([key, value]) => english.get(key) === value)
      // Placeholders, units and punctuation only: nothing to translate.
      .filter(([, value]) =>
        /[A-Za-z]{2,}/.test(value.replace(/\{\{[^}]*\}\}/g, '').replace(/\b(?:ms|min|[dhs])\b/g, '')),
      )
      .filter(([, value]) => !neutral.has(value))
      .map(([key, value]) => `${key}: ${value}`);
    expect(shared).toEqual([]);
  });

  it("name the account screen's payment method and plan lines as the brief does", () => {
    expect(ptBR.account.hasCard).toBe('Cartão cadastrado');
    expect(ptBR.account.noCard).toBe('Nenhum cartão');
    expect(ptBR.account.noMonthlyFee).toBe('sem mensalidade');
    expect(ptBR.account.perSite).toBe('{{amount}} por mês por site');
    expect(en.account.cardNotConfigured).toBe('Card payments are not configured.');
  });
});
