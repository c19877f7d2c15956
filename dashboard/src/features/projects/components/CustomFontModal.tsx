import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import type { CustomFont } from '@/lib/types';
import { readAsDataUrl, useUploadFile } from '@/features/projects/api/upload-file';
import { customFontWeights, isWoff2 } from '@/features/projects/lib/fonts';

interface CustomFontModalProps {
  prefix: (string | number)[];
  onAdd: (font: CustomFont) => void;
  onClose: () => void;
}

/** Uploads one .woff2 file as a custom font with one weight. */
export function CustomFontModal({ prefix, onAdd, onClose }: CustomFontModalProps) {
  const { t } = useTranslation();
  const upload = useUploadFile();
  const [family, setFamily] = useState('');
  const [weight, setWeight] = useState<string>('regular');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ family?: string; file?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!family.trim()) next.family = t('validation.fontFamilyRequired');
    if (!file) next.file = t('validation.fontFileRequired');
    else if (!isWoff2(file.name)) next.file = t('validation.woff2Only');
    setErrors(next);
    if (next.family || next.file || !file) return;
    const content = await readAsDataUrl(file);
    upload.mutate(
      { name: file.name, content, prefix, accept: 'font' },
      {
        onSuccess: (filename) => {
          onAdd({ family: family.trim(), variants: [weight], filename });
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
    <Dialog title={t('settings.customFonts.modalTitle')} onClose={onClose} testId="custom-font-modal">
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        {upload.isError && <Alert>{errorMessage(upload.error)}</Alert>}
        <FormField label={t('settings.customFonts.family')} id="custom-font-family" error={errors.family}>
          <input id="custom-font-family" value={family} onChange={(event) => setFamily(event.target.value)} />
        </FormField>
        <FormField label={t('settings.customFonts.weight')} id="custom-font-weight">
          <select id="custom-font-weight" value={weight} onChange={(event) => setWeight(event.target.value)}>
            {customFontWeights.map((value) => (
              <option key={value} value={value}>
                {value === 'regular' ? t('settings.customFonts.regular') : value}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          label={t('settings.customFonts.file')}
          id="custom-font-file"
          error={errors.file}
          description={t('settings.customFonts.hint')}
        >
          <input
            id="custom-font-file"
            type="file"
            accept=".woff2,font/woff2"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={upload.isPending}>
            {t('settings.customFonts.upload')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
