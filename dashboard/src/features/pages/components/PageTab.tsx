import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/FormControls';
import { FormField } from '@/components/FormField';
import { normalizePageSlug } from '@/lib/validation';
import { HIDE_IN_MENU, metaFlag, OPT_OUT_KEY, type SectionKind } from '@/features/pages/lib/shared-sections';
import type { PageFields } from '@/features/pages/lib/editor-commands';
import { useEditorContext } from './editor-context';
import { ImageChooser } from './fields/ImageChooser';

interface Props {
  fields: PageFields;
  isHome: boolean;
  /** The collection the page is bound to (a collection page), or null. */
  tableId: number | null;
  /** Binds the page to a collection, or unbinds it (null); saved at once, not by autosave. */
  onCollectionChange: (tableId: number | null) => void;
  /** While a bind or unbind is being saved. */
  binding: boolean;
  /** The shared sections the project has (the page may leave each out). */
  sections?: Record<SectionKind, boolean>;
  onChange: (patch: Partial<PageFields>) => void;
}

/**
 * The Page tab (spec §2): name, slug (normalised on leaving the field; the home page stays
 * '/'), SEO description, SEO image (png/jpg upload) and the header/meta code, saved with the
 * blocks by the editor's autosave; the site sections: whether the page shows the global header
 * and footer, and whether it is in the site menu (autosaved too); and the collection the page
 * shows posts of (spec §2 "collection pages"), saved at once since the canvas's post and bindings
 * depend on it. The home page stays a simple page.
 */
export function PageTab({ fields, isHome, tableId, onCollectionChange, binding, sections, onChange }: Props) {
  const { t } = useTranslation();
  const { userId, projectId, tables } = useEditorContext();
  const isCollection = tableId !== null;
  // The meta stores opt-outs, the boxes read as opt-ins.
  const toggle = (key: string, shown: boolean) => onChange({ meta: { ...fields.meta, [key]: !shown } });
  const kinds = (['header', 'footer'] as const).filter((kind) => sections?.[kind]);
  const slugHint = isCollection ? t('pageSettings.collectionHint') : undefined;
  const collectionHint = isHome ? t('pageSettings.collectionHome') : undefined;
  /** A text field's wiring: id and test id `page-<key>`, its value, and its change. */
  const text = (key: 'name' | 'slug' | 'description') => ({
    id: `page-${key}`,
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange({ [key]: e.target.value }),
    'data-testid': `page-${key}`,
  });
  return (
    <div className="page-tab form" data-testid="page-settings">
      <FormField label={t('pageSettings.name')} id="page-name">
        <input {...text('name')} />
      </FormField>
      <FormField label={t('pageSettings.slug')} id="page-slug" description={slugHint}>
        <input
          {...text('slug')}
          disabled={isHome}
          onBlur={() => onChange({ slug: isHome ? '/' : normalizePageSlug(fields.slug) })}
        />
      </FormField>
      <FormField label={t('pageSettings.collection')} id="page-collection" description={collectionHint}>
        <select
          id="page-collection"
          value={tableId ?? ''}
          disabled={isHome || binding}
          onChange={(e) => onCollectionChange(e.target.value ? Number(e.target.value) : null)}
          data-testid="page-collection"
        >
          <option value="">{t('pageSettings.noCollection')}</option>
          {tables.map((table) => (
            <option key={table.id} value={table.id}>
              {table.name}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label={t('pageSettings.description')} id="page-description">
        <textarea {...text('description')} rows={3} />
      </FormField>
      <FormField label={t('editor.page.image')} id="page-image" labelAs="text">
        <ImageChooser
          id="page-image"
          src={fields.image}
          prefix={[userId, projectId]}
          onChange={(image) => onChange({ image })}
          testId="page-image"
        />
      </FormField>
      <FormField label={t('editor.page.header')} id="page-header" description={t('editor.page.headerHint')}>
        <textarea
          id="page-header"
          className="code-textarea"
          rows={6}
          spellCheck={false}
          value={fields.meta.header ?? ''}
          onChange={(e) => onChange({ meta: { ...fields.meta, header: e.target.value } })}
          data-testid="page-header"
        />
      </FormField>
      {(kinds.length > 0 || !isCollection) && (
        <fieldset className="page-sections" data-testid="page-sections">
          <legend>{t('editor.page.sections')}</legend>
          {kinds.map((kind) => (
            <Checkbox
              key={kind}
              label={t(kind === 'header' ? 'editor.page.showHeader' : 'editor.page.showFooter')}
              checked={!metaFlag(fields.meta, OPT_OUT_KEY[kind])}
              onChange={(checked) => toggle(OPT_OUT_KEY[kind], checked)}
              testId={`page-show-${kind}`}
            />
          ))}
          {!isCollection && (
            <>
              <Checkbox
                label={t('editor.page.inMenu')}
                checked={!metaFlag(fields.meta, HIDE_IN_MENU)}
                onChange={(checked) => toggle(HIDE_IN_MENU, checked)}
                testId="page-in-menu"
              />
              <small className="field-hint">{t('editor.page.inMenuHint')}</small>
            </>
          )}
        </fieldset>
      )}
    </div>
  );
}
