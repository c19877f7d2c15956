import { useTranslation } from 'react-i18next';
import { ImageUpload } from '@/components/ImageUpload';
import { ActionButton } from '@/components/ActionButton';

/** The name a person recognises in an image address: its last path segment, decoded. */
export function imageFileName(src: string): string {
  const path = src.split(/[?#]/)[0] ?? src;
  const last = path.split('/').filter(Boolean).pop() ?? src;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

interface Props {
  /** The control's id: the address input, which the field's label names. */
  id: string;
  src: string;
  onChange: (src: string) => void;
  /** Upload folder: [user_id, project_id]. */
  prefix: (string | number)[];
  testId: string;
}

/**
 * An image field: a thumbnail and the file's name, never the upload path (a storage detail no
 * one needs to read); Upload or Replace, and Remove. An image from elsewhere on the web can
 * still be used by its address, behind "Use a web address".
 */
export function ImageChooser({ id, src, onChange, prefix, testId }: Props) {
  const { t } = useTranslation();
  return (
    <div className="image-chooser" data-testid={testId}>
      {src ? (
        <figure className="image-chooser-current">
          <img className="var-image-preview" src={src} alt="" data-testid={`${testId}-preview`} />
          <figcaption className="small" data-testid={`${testId}-name`}>
            {imageFileName(src)}
          </figcaption>
        </figure>
      ) : (
        <p className="muted small" data-testid={`${testId}-empty`}>
          {t('forms.image.none')}
        </p>
      )}
      <div className="button-row">
        <ImageUpload
          prefix={prefix}
          onUploaded={(url) => onChange(url)}
          label={src ? t('forms.image.replace') : undefined}
          testId={`${testId}-upload`}
        />
        {src && (
          <ActionButton
            size="small"
            variant="danger-ghost"
            onClick={() => onChange('')}
            testId={`${testId}-remove`}
          >
            {t('forms.image.remove')}
          </ActionButton>
        )}
      </div>
      <details className="image-chooser-address">
        <summary>{t('forms.image.useAddress')}</summary>
        <input
          id={id}
          type="url"
          aria-label={t('editor.vars.src')}
          placeholder="https://"
          value={src}
          onChange={(event) => onChange(event.target.value)}
          data-testid={`${testId}-address`}
        />
      </details>
    </div>
  );
}
