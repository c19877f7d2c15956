import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { serializeResponse } from '@/lib/serialize-response';

/**
 * Spec 1 §8: a failed deploy, unpublish, rollback or domain removal shows the serialized server
 * response. Above it, what went wrong in the interface's language (the error's code through the
 * catalogue, as every server error is shown), since the serialized answer carries the server's
 * English text.
 */
export function ResponseBox({ error, title }: { error: unknown; title: string }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert-error response-box" role="alert" data-testid="response-box">
      <p>{title}</p>
      <p data-testid="response-message">{errorMessage(error)}</p>
      <figure>
        <figcaption>{t('common.response')}</figcaption>
        <pre data-testid="response-body">{serializeResponse(error)}</pre>
      </figure>
    </div>
  );
}
