import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, Form, Input, Label, Radio, RadioGroup, Text, TextField } from 'react-aria-components';
import { Button } from '@/components/ui/Button';
import { Dialog } from '@/components/ui/Dialog';
import { Select } from '@/components/ui/Select';
import type { TableSummary } from '@/lib/types';
import { normalizePageSlug } from '@/lib/validation';

export interface NewPageValues {
  name: string;
  slug: string;
  /** The collection of a collection page; null for a static page. */
  table_id: number | null;
}

interface Props {
  collections: TableSummary[];
  onCreate: (values: NewPageValues) => void;
  onClose: () => void;
  isPending?: boolean;
}

/**
 * "+ Nova página": the page's name, its slug (filled in from the name until the person edits
 * it) and its type, static or a collection page with its collection.
 */
export function NewPageDialog({ collections, onCreate, onClose, isPending = false }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [kind, setKind] = useState<'static' | 'collection'>('static');
  const [tableId, setTableId] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const shownSlug = slugEdited ? slug : name.trim() ? normalizePageSlug(name) : '';
  const nameMissing = name.trim() === '';
  const collectionMissing = kind === 'collection' && tableId === null;

  const submit = () => {
    setSubmitted(true);
    if (nameMissing || collectionMissing) return;
    onCreate({
      name: name.trim(),
      slug: normalizePageSlug(shownSlug || name),
      table_id: kind === 'collection' ? Number(tableId) : null,
    });
  };

  return (
    <Dialog title={t('kit.newPage.title')} onClose={onClose} testId="new-page-dialog" isDismissable={false}>
      <Form
        className="form"
        validationBehavior="aria"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          className="field"
          value={name}
          onChange={setName}
          autoFocus
          isInvalid={submitted && nameMissing}
          isRequired
        >
          <Label>{t('kit.newPage.name')}</Label>
          <Input className="input" data-testid="new-page-name" />
          <FieldError className="field-error">{t('kit.newPage.nameRequired')}</FieldError>
        </TextField>
        <TextField
          className="field"
          value={shownSlug}
          onChange={(value) => {
            setSlugEdited(true);
            setSlug(value);
          }}
        >
          <Label>{t('kit.newPage.slug')}</Label>
          <Input className="input" data-testid="new-page-slug" />
          <Text slot="description" className="muted">
            {t('kit.newPage.slugHint')}
          </Text>
        </TextField>
        <RadioGroup
          className="field"
          value={kind}
          onChange={(value) => setKind(value as 'static' | 'collection')}
          data-testid="new-page-type"
        >
          <Label>{t('kit.newPage.type')}</Label>
          <Radio value="static" className="radio" data-testid="new-page-type-static">
            {t('kit.newPage.static')}
          </Radio>
          <Radio
            value="collection"
            className="radio"
            isDisabled={collections.length === 0}
            data-testid="new-page-type-collection"
          >
            {t('kit.newPage.collection')}
          </Radio>
          {collections.length === 0 && (
            <Text slot="description" className="muted">
              {t('kit.newPage.noCollections')}
            </Text>
          )}
        </RadioGroup>
        {kind === 'collection' && (
          <>
            <Select
              label={t('kit.newPage.chooseCollection')}
              options={collections.map((table) => ({ id: String(table.id), label: table.name }))}
              value={tableId}
              onChange={setTableId}
              placeholder={t('kit.newPage.chooseCollectionPlaceholder')}
              testId="new-page-collection"
            />
            {submitted && collectionMissing && (
              <p className="field-error" role="alert">
                {t('kit.newPage.collectionRequired')}
              </p>
            )}
          </>
        )}
        <div className="button-row modal-actions">
          <Button onPress={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" isDisabled={isPending} testId="new-page-create">
            {t('kit.newPage.create')}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
