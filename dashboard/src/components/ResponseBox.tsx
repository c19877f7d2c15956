import { useTranslation } from 'react-i18next';
import { serializeResponse } from '@/lib/serialize-response';

/** Spec 1 §8: a failed deploy, unpublish, rollback or domain removal shows the serialized server response. */
export function ResponseBox({ error, title }: { error: unknown; title: string }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert-error response-box" role="alert" data-testid="response-box">
      <p>{title}</p>
      <figure>
        <figcaption>{t('common.response')}</figcaption>
        <pre data-testid="response-body">{serializeResponse(error)}</pre>
      </figure>
    </div>
  );
}
