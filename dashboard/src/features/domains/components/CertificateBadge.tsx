import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';
import type { Certificate } from '@/lib/types';

const BADGE: Record<Certificate['status'] | 'none', string> = {
  none: 'badge-muted',
  pending: 'badge-muted',
  issued: 'badge-success',
  failing: 'badge-danger',
};

/**
 * The HTTPS certificate of the custom domain: none yet, pending, issued (with its expiry date),
 * or failing (with the last error, as the edge recorded it); while not issued, when the next
 * attempt is due.
 */
export function CertificateBadge({ certificate }: { certificate: Certificate | null | undefined }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const status = certificate?.status ?? 'none';

  let label;
  if (certificate?.status === 'issued' && certificate.expires_at) {
    label = t('domains.certificate.issuedUntil', { date: fmt.date(certificate.expires_at) });
  } else {
    label = t(`domains.certificate.${status}`);
  }

  return (
    <span className="certificate-status" data-testid="certificate-status" data-status={status}>
      <span className={`badge ${BADGE[status]}`} data-testid="certificate-badge">
        {label}
      </span>
      {certificate?.status === 'failing' && certificate.last_error && (
        <span className="certificate-error" data-testid="certificate-error">
          {certificate.last_error}
        </span>
      )}
      {certificate && certificate.status !== 'issued' && certificate.next_attempt_at && (
        <span className="muted small" data-testid="certificate-next-attempt">
          {t('domains.certificate.nextAttempt', { date: fmt.dateTime(certificate.next_attempt_at) })}
        </span>
      )}
    </span>
  );
}
