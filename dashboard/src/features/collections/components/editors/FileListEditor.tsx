import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemButtons } from '@/components/ItemButtons';
import type { FileItem } from '@/features/collections/types';
import { UploadButton } from '@/features/collections/components/UploadButton';

interface FileListEditorProps {
  id: string;
  images: boolean;
  value: FileItem[];
  onChange: (value: FileItem[]) => void;
  prefix: (string | number)[];
}

/** gallery / multiple-file: several uploads, a caption per item, up/down reordering and removal. */
export function FileListEditor({ id, images, value, onChange, prefix }: FileListEditorProps) {
  const { t } = useTranslation();
  // The list as last rendered, which uploads finishing in a row append to (see onUploaded);
  // brought up to date after each commit, never during render.
  const latest = useRef(value);
  useLayoutEffect(() => {
    latest.current = value;
  });
  const fileName = (src: string) => decodeURIComponent(src.split('/').pop() ?? src);
  return (
    <div className="file-list-editor" id={id} data-testid={`${id}-list`}>
      {value.length > 0 && (
        <ol className="file-items">
          {value.map((item, index) => (
            <li key={`${item.src}-${index}`} className="file-item" data-testid="file-item">
              {images ? (
                <img src={item.src} alt={item.caption} className="file-thumb" />
              ) : (
                <a href={item.src} target="_blank" rel="noreferrer">
                  {fileName(item.src)}
                </a>
              )}
              <input
                aria-label={t('records.form.caption')}
                placeholder={t('records.form.caption')}
                value={item.caption}
                onChange={(event) =>
                  onChange(
                    value.map((current, i) =>
                      i === index ? { ...current, caption: event.target.value } : current,
                    ),
                  )
                }
                data-testid="file-caption"
              />
              <ItemButtons
                items={value}
                index={index}
                onChange={onChange}
                upLabel={t('records.form.moveUp')}
                downLabel={t('records.form.moveDown')}
                compact
              />
            </li>
          ))}
        </ol>
      )}
      <UploadButton
        multiple
        imagesOnly={images}
        prefix={prefix}
        label={t('records.form.addFiles')}
        testId={`${id}-upload`}
        // Each upload appends to the latest list, so several files in one pick all stay.
        onUploaded={(src) => {
          latest.current = [...latest.current, { src, caption: '' }];
          onChange(latest.current);
        }}
      />
    </div>
  );
}
