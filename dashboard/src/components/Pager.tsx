import { useTranslation } from 'react-i18next';
import type { Paginated } from '@/lib/types';
import { ActionButton } from './ActionButton';

interface PagerProps {
  page: Paginated<unknown>;
  onPage: (page: number) => void;
  testId?: string;
}

/**
 * "11–20 of 25" with previous and next, driven by a Laravel-style page from the API. Nothing
 * when the list is empty from its first page (the list says so itself).
 */
export function Pager({ page, onPage, testId = 'pager' }: PagerProps) {
  const { t } = useTranslation();
  if (page.total === 0 && page.prev_page_url === null) return null;
  return (
    <nav className="pagination" aria-label={t('pager.label')} data-testid={testId}>
      <ActionButton
        size="small"
        disabled={page.prev_page_url === null}
        onClick={() => onPage(page.current_page - 1)}
        testId="page-previous"
      >
        ‹ {t('pager.previous')}
      </ActionButton>
      <span data-testid="page-range">
        {page.from === null
          ? t('pager.empty')
          : t('pager.range', { from: page.from, to: page.to, total: page.total })}
      </span>
      <ActionButton
        size="small"
        disabled={page.next_page_url === null}
        onClick={() => onPage(page.current_page + 1)}
        testId="page-next"
      >
        {t('pager.next')} ›
      </ActionButton>
    </nav>
  );
}
