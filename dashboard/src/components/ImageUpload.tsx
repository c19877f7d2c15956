import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { isJpgOrPng, readAsDataUrl } from '@/lib/files';
import { errorMessage } from '@/lib/api-client';
import { useUploadImage } from '@/lib/upload-image';
import { ActionButton } from '@/components/ActionButton';

interface Props {
  /** Upload folder: [user_id, project_id], rich text included. */
  prefix: (string | number)[];
  onUploaded: (url: string, file: File) => void;
  label?: string;
  testId?: string;
}

/**
 * The image upload of the editor and the identity screen (spec §5, §8): png, jpg or jpeg only, otherwise the spec's alert;
 * a failed upload is logged and the server's answer alerted.
 */
export function ImageUpload({ prefix, onUploaded, label, testId }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadImage();

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isJpgOrPng(file)) {
      toast.error(t('editor.imageOnly'));
      return;
    }
    try {
      const content = await readAsDataUrl(file);
      const url = await upload.mutateAsync({ name: file.name, content, prefix });
      onUploaded(url, file);
    } catch (error) {
      console.error(error);
      toast.error(errorMessage(error));
    }
  };

  return (
    <>
      <ActionButton
        size="small"
        disabled={upload.isPending}
        onClick={() => input.current?.click()}
        testId={testId}
      >
        {upload.isPending ? t('editor.uploading') : (label ?? t('editor.upload'))}
      </ActionButton>
      <input
        ref={input}
        type="file"
        accept=".png,.jpg,.jpeg,image/png,image/jpeg"
        hidden
        onChange={(event) => void onChange(event)}
        data-testid={testId ? `${testId}-input` : undefined}
      />
    </>
  );
}
