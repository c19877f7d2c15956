import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/FormDialog';
import { NameSlugFields } from '@/components/NameSlugFields';
import { RadioController, SelectController } from '@/components/SelectController';
import { useZodForm } from '@/lib/forms';
import type { Page, TableSummary } from '@/lib/types';
import { newPageSchema, normalizePageSlug, type NewPageValues } from '@/lib/validation';
import { useCreatePage } from '@/features/projects/api/create-page';

interface Props {
  projectId: number;
  collections: TableSummary[];
  /** The page was made (and its slug and collection set): the caller opens it; the dialog then closes. */
  onCreated: (page: Page) => void;
  onClose: () => void;
}

/**
 * "+ Nova página": the page's name, its slug (filled in from the name as it is typed, with the
 * server's page-slug rule, until the person edits it) and its type, static or a collection page
 * with its collection. Checked as the server checks (`newPageSchema`); each error shows at its
 * field, and a refusal of the server that names the name, the slug or the collection shows there.
 */
export function NewPageDialog({ projectId, collections, onCreated, onClose }: Props) {
  const { t } = useTranslation();
  const createPage = useCreatePage();
  const { form, saveWith } = useZodForm(newPageSchema, {
    defaultValues: { name: '', slug: '', kind: 'static', tableId: null },
    serverFields: ['name', 'slug', 'tableId'],
    serverFieldMap: { table_id: 'tableId' },
  });
  const kind = useWatch({ control: form.control, name: 'kind' });

  const dialog = saveWith(
    createPage,
    (values: NewPageValues) => ({ ...values, project_id: projectId }),
    onClose,
    { onSuccess: onCreated },
  );

  return (
    <FormDialog
      title={t('kit.newPage.title')}
      testId="new-page-dialog"
      form={dialog}
      saveTestId="new-page-create"
      saveLabel={t('kit.newPage.create')}
    >
      <NameSlugFields
        form={form}
        id="new-page"
        labels={{ name: t('kit.newPage.name'), slug: t('kit.newPage.slug') }}
        slugHint={t('kit.newPage.slugHint')}
        fill="typing"
        normalise={normalizePageSlug}
        autoFocus
      />
      <RadioController
        control={form.control}
        name="kind"
        // Back to a static page, a "choose the collection" error no longer stands.
        deps={['tableId']}
        label={t('kit.newPage.type')}
        options={[
          { id: 'static', label: t('kit.newPage.static'), testId: 'new-page-type-static' },
          {
            id: 'collection',
            label: t('kit.newPage.collection'),
            isDisabled: collections.length === 0,
            testId: 'new-page-type-collection',
          },
        ]}
        description={collections.length === 0 ? t('kit.newPage.noCollections') : undefined}
        testId="new-page-type"
      />
      {kind === 'collection' && (
        <SelectController
          control={form.control}
          name="tableId"
          label={t('kit.newPage.chooseCollection')}
          required
          options={collections.map((table) => ({ id: String(table.id), label: table.name }))}
          placeholder={t('kit.newPage.chooseCollectionPlaceholder')}
          testId="new-page-collection"
        />
      )}
    </FormDialog>
  );
}
