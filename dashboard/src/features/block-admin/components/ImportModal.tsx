import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CodeField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toast } from '@/components/toast';
import { toastFailure } from '@/components/admin-toasts';
import { useZodForm } from '@/lib/forms';
import { useImportBlocks } from '@/features/block-admin/api/import-blocks';
import { useImportCategories } from '@/features/block-admin/api/import-categories';

/** The pasted export: some text that parses as JSON, as the server's `import_list` first asks. */
const importSchema = z.object({
  text: z
    .string()
    .refine((value) => value.trim().length > 0, 'validation.fieldRequired')
    .refine((value) => value.trim().length === 0 || parsesAsJson(value), 'validation.importJsonInvalid'),
});

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

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
  const { bind, saveWith } = useZodForm(importSchema, {
    defaultValues: { text: '' },
    serverFields: ['text'],
    // The server names the list it could not read or whose entry it refused.
    serverFieldMap: { [kind]: 'text' },
  });

  const dialog = saveWith(mutation, ({ text }: { text: string }) => text, onClose, {
    onSuccess: ({ imported }) => toast.success(t('blockAdmin.imported', { n: imported })),
    onError: (error) => toastFailure(t, error),
  });

  return (
    <FormDialog
      title={t(`blockAdmin.import.${kind}`)}
      testId={`import-${kind}`}
      form={dialog}
      saveTestId="import-submit"
      saveLabel={t('blockAdmin.import.submit')}
      failureTestId="import-error"
    >
      <CodeField label={t('blockAdmin.import.text')} id="import-text" rows={12} required {...bind('text')} />
    </FormDialog>
  );
}
