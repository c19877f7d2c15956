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
    for (const catalogue of [en, ptBR]) {
      expect(catalogue.editor.source.xVarsError).toBe('x-vars error: ');
      expect(catalogue.editor.source.nameRequired).toBe('Block Name is required');
      expect(catalogue.editor.source.nameExists).toBe('Block Name already exists');
      expect(catalogue.editor.source.saved).toBe('saved!');
    }
    expect(en.collections.validation).toEqual({
      nameRequired: 'Name is required',
      pluralRequired: 'Plural is required',
      singularRequired: 'Singular is required',
      typeRequired: 'Type is required',
      relationRequired: 'The relation collection is required',
    });
  });

  it("name the account screen's payment method and plan lines as the brief does", () => {
    expect(ptBR.account.hasCard).toBe('Cartão cadastrado');
    expect(ptBR.account.noCard).toBe('Nenhum cartão');
    expect(ptBR.account.noMonthlyFee).toBe('sem mensalidade');
    expect(ptBR.account.perSite).toBe('{{amount}} por mês por site');
    expect(en.account.cardNotConfigured).toBe('Card payments are not configured.');
  });
});
