import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilePicker } from '@/components/FilePicker';
import { RemoveButton } from '@/components/ItemButtons';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { readAsDataUrl, useUploadFile } from '@/features/projects/api/upload-file';
import { isFaviconFile } from '@/features/projects/lib/fonts';

interface FaviconUploadProps {
  value: string;
  onChange: (url: string) => void;
  uploadPrefix: (string | number)[];
}

/** Uploads a png/jpg/ico/svg file and keeps its URL for meta.favicon. */
export function FaviconUpload({ value, onChange, uploadPrefix }: FaviconUploadProps) {
  const { t } = useTranslation();
  const upload = useUploadFile();
  const [error, setError] = useState<string>();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!isFaviconFile(file.name)) {
      setError(t('validation.faviconType'));
      return;
    }
    setError(undefined);
    const content = await readAsDataUrl(file);
    upload.mutate(
      { name: file.name, content, prefix: uploadPrefix },
      {
        onSuccess: onChange,
        onError: (failure) => {
          console.error('favicon upload failed', failure);
          toast.error(errorMessage(failure));
        },
      },
    );
  };

  return (
    <div className="favicon-upload">
      {value ? (
        <img src={value} alt={t('settings.favicon')} className="favicon-preview" />
      ) : (
        <span className="favicon-preview empty" />
      )}
      <FilePicker
        id="favicon-file"
        buttonLabel={t('settings.faviconChoose')}
        accept=".png,.jpg,.jpeg,.ico,.svg,image/png,image/jpeg,image/x-icon,image/svg+xml"
        disabled={upload.isPending}
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      {value && <RemoveButton onRemove={() => onChange('')} />}
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
