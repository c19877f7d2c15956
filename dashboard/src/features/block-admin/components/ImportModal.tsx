import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { useImportBlocks } from '@/features/block-admin/api/import-blocks';
import { useImportCategories } from '@/features/block-admin/api/import-categories';
import { toast } from '@/components/toast';
import { toastFailure } from '@/components/admin-toasts';

interface Props {
  kind: 'categories' | 'blocks';
  onClose: () => void;
}

/** Paste the text of an export; the server writes all of it or nothing (422 with the reason). */
export function ImportModal({ kind, onClose }: Props) {
  const { t } = useTranslation();
  const categories = useImportCategories();
  const blocks = useImportBlocks();
  const mutation = kind === 'categories' ? categories : blocks;
  const [text, setText] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate(text, {
      onSuccess: ({ imported }) => {
        toast.success(t('blockAdmin.imported', { n: imported }));
        onClose();
      },
      onError: (failure) => toastFailure(t, failure),
    });
  };

  return (
    <Dialog title={t(`blockAdmin.import.${kind}`)} onClose={onClose} testId={`import-${kind}`}>
      <form onSubmit={submit} className="form">
        {mutation.isError && <Alert testId="import-error">{errorMessage(mutation.error)}</Alert>}
        <FormField label={t('blockAdmin.import.text')} id="import-text">
          <textarea
            id="import-text"
            className="code-input"
            rows={12}
            value={text}
            onChange={(event) => setText(event.target.value)}
            data-testid="import-text"
          />
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose} data-testid="import-cancel">
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={mutation.isPending || !text.trim()}
            data-testid="import-submit"
          >
            {t('blockAdmin.import.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
