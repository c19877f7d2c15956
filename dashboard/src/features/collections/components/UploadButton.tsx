import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { isJpgOrPng, readAsDataUrl } from '@/lib/files';
import { useUploadFile } from '@/features/collections/api/upload-file';

interface UploadButtonProps {
  /** Called once per uploaded file, in the order chosen. */
  onUploaded: (url: string, file: File) => void;
  prefix: (string | number)[];
  /** Images: png/jpg only, checked here and by the server. */
  imagesOnly?: boolean;
  multiple?: boolean;
  label: string;
  testId?: string;
}

/** A file input that uploads each chosen file (POST /api/upload) and reports its URL. */
export function UploadButton({
  onUploaded,
  prefix,
  imagesOnly = false,
  multiple = false,
  label,
  testId,
}: UploadButtonProps) {
  const { t } = useTranslation();
  const id = useId();
  const upload = useUploadFile();
  const [busy, setBusy] = useState(false);

  const choose = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const chosen = Array.from(files);
    if (imagesOnly && !chosen.every(isJpgOrPng)) {
      toast.error(t('records.form.imageOnly'));
      return;
    }
    setBusy(true);
    try {
      for (const file of chosen) {
        const content = await readAsDataUrl(file);
        const url = await upload.mutateAsync({
          name: file.name,
          content,
          prefix,
          ...(imagesOnly ? { accept: 'image' as const } : {}),
        });
        onUploaded(url, file);
      }
    } catch (failure) {
      console.error('upload failed', failure);
      toast.error(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <label className={`button button-small upload-button${busy ? ' is-busy' : ''}`} htmlFor={id}>
      {busy ? t('records.form.uploading') : label}
      <input
        id={id}
        type="file"
        className="sr-only"
        multiple={multiple}
        accept={imagesOnly ? '.png,.jpg,.jpeg,image/png,image/jpeg' : undefined}
        disabled={busy}
        data-testid={testId}
        onChange={(event) => {
          void choose(event.target.files);
          event.target.value = '';
        }}
      />
    </label>
  );
}
