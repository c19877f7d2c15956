import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';
import type { DomainCheck } from '@/lib/types';

/**
 * When the server checks a pending custom domain again ("Próxima verificação em …", from the
 * project's `domain_check.next_check_at`); nothing once it stopped checking on its own.
 */
export function NextDomainCheck({
  check,
  testId = 'domain-next-check',
}: {
  check: DomainCheck;
  testId?: string;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (!check.next_check_at) return null;
  return (
    <span className="muted small" data-testid={testId}>
      {t('domains.nextCheck', { date: fmt.dateTime(check.next_check_at) })}
    </span>
  );
}
