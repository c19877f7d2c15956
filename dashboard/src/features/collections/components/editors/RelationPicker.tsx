import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useData } from '@/features/collections/api/get-data';
import { ActionButton } from '@/components/ActionButton';

interface RelationPickerProps {
  id: string;
  targetTableId: number | undefined;
  value: number | null;
  onChange: (id: number | null) => void;
}

/** Picks one record of the target collection (GET /api/data/{target}, 100 per page). */
export function RelationPicker({ id, targetTableId, value, onChange }: RelationPickerProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const data = useData(targetTableId ?? 0, page);
  const posts = data.data?.posts ?? [];
  const pages = data.data ? Math.max(1, Math.ceil(data.data.total / data.data.limit)) : 1;
  const known = value === null || posts.some((post) => post.id === value);

  return (
    <div className="relation-picker">
      <select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value ? Number(event.target.value) : null)}
        data-testid={id}
      >
        <option value="">{t('records.form.none')}</option>
        {!known && value !== null && <option value={value}>#{value}</option>}
        {posts.map((post) => (
          <option key={post.id} value={post.id}>
            {post.name || post.slug || `#${post.id}`}
          </option>
        ))}
      </select>
      {pages > 1 && (
        <div className="button-row">
          <ActionButton
            size="small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
            aria-label={t('records.previous')}
          >
            ‹
          </ActionButton>
          <span className="muted small">{t('records.page', { page, pages })}</span>
          <ActionButton
            size="small"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
            aria-label={t('records.next')}
          >
            ›
          </ActionButton>
        </div>
      )}
    </div>
  );
}
