import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { useConvertPhotos, usePhotoConversion } from '@/features/photos/api/photos';

/**
 * /erp/photos: how many of the uploaded photos have been made into responsive variants without
 * their EXIF (done of total), and a button that converts the older ones in the background.
 */
export function PhotosScreen() {
  const { t } = useTranslation();
  const progress = usePhotoConversion();
  const convert = useConvertPhotos();
  const data = progress.data;
  return (
    <main>
      <h1>{t('photos.title')}</h1>
      <p>{t('photos.intro')}</p>
      {progress.isError && (
        <p role="alert">{t('photos.loadFailed', { message: errorMessage(progress.error) })}</p>
      )}
      {data && (
        <>
          <p data-testid="photos-progress">{t('photos.progress', { done: data.done, total: data.total })}</p>
          <progress value={data.done} max={Math.max(data.total, 1)} aria-label={t('photos.title')} />
          {data.failed > 0 && <p>{t('photos.failed', { count: data.failed })}</p>}
          {data.running && <p role="status">{t('photos.running')}</p>}
          {data.last_error && <p role="alert">{t('photos.lastError', { message: data.last_error })}</p>}
        </>
      )}
      <button
        type="button"
        data-testid="photos-convert"
        disabled={convert.isPending || data?.running === true}
        onClick={() => convert.mutate()}
      >
        {t('photos.convert')}
      </button>
    </main>
  );
}
