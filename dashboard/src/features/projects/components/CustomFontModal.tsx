import { useTranslation } from 'react-i18next';
import { FileField, InputField, SelectField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/forms';
import type { CustomFont } from '@/lib/types';
import { readAsDataUrl, useUploadFile } from '@/features/projects/api/upload-file';
import { customFontSchema, customFontWeights, type CustomFontValues } from '@/features/projects/lib/fonts';

interface CustomFontModalProps {
  prefix: (string | number)[];
  onAdd: (font: CustomFont) => void;
  onClose: () => void;
}

/** Uploads one .woff2 file as a custom font with one weight. */
export function CustomFontModal({ prefix, onAdd, onClose }: CustomFontModalProps) {
  const { t } = useTranslation();
  const upload = useUploadFile();
  const zodForm = useZodForm(customFontSchema, {
    defaultValues: { family: '', weight: 'regular', file: undefined },
    serverFields: ['file'],
    // The upload refuses the file's content (not a woff2) or its name at the file field.
    serverFieldMap: { content: 'file', name: 'file' },
  });
  const { bind, submitTo } = zodForm;

  const submit = async ({ family, weight, file }: CustomFontValues) => {
    const content = await readAsDataUrl(file);
    submitTo(
      upload,
      { name: file.name, content, prefix, accept: 'font' },
      {
        onSuccess: (filename) => {
          onAdd({ family, variants: [weight], filename });
          onClose();
        },
        onError: (error) => {
          console.error('custom font upload failed', error);
          toast.error(errorMessage(error));
        },
      },
    );
  };

  return (
    <FormDialog
      title={t('settings.customFonts.modalTitle')}
      testId="custom-font-modal"
      // Two steps (the file's content is read first), so not `saveWith`.
      form={{ ...zodForm, onValid: submit, saving: upload.isPending, onClose }}
      saveLabel={t('settings.customFonts.upload')}
    >
      <InputField
        label={t('settings.customFonts.family')}
        id="custom-font-family"
        required
        {...bind('family')}
      />
      <SelectField label={t('settings.customFonts.weight')} id="custom-font-weight" {...bind('weight')}>
        {customFontWeights.map((value) => (
          <option key={value} value={value}>
            {value === 'regular' ? t('settings.customFonts.regular') : value}
          </option>
        ))}
      </SelectField>
      <FileField
        label={t('settings.customFonts.file')}
        id="custom-font-file"
        accept=".woff2,font/woff2"
        required
        description={t('settings.customFonts.hint')}
        {...bind('file')}
      />
    </FormDialog>
  );
}
