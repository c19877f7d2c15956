import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { useFormat } from '@/lib/format';
import type { PageSummary } from '@/lib/types';
import { ActionButton } from '@/components/ActionButton';

interface PageListProps {
  projectId: number;
  pages: PageSummary[];
  title: string;
  emptyText: string;
  onDelete: (page: PageSummary) => void;
  testId: string;
}

/** Static or collection pages of a project; collection pages show their slug as slug/*. */
export function PageList({ projectId, pages, title, emptyText, onDelete, testId }: PageListProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <div className="card" data-testid={testId}>
      <h2 className="section-title">{title}</h2>
      {pages.length === 0 ? (
        <p className="muted">{emptyText}</p>
      ) : (
        <ul className="page-list">
          {pages.map((page) => {
            const slug = page.table_id === null ? page.slug : `${page.slug}/*`;
            return (
              <li key={page.id} data-testid="page-item">
                <Link to={paths.page.build({ projectId, pageId: page.id })} className="page-link">
                  <strong>{page.name}</strong>
                  <code>{slug === '/' ? '/' : `/${slug}`}</code>
                </Link>
                <span className="muted small">{fmt.dateTime(page.updated_at)}</span>
                {page.slug !== '/' && (
                  <ActionButton size="small" variant="danger-ghost" onClick={() => onDelete(page)}>
                    {t('common.delete')}
                  </ActionButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
