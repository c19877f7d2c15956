import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { PageLoader } from '@/components/PageLoader';
import { SortableList } from '@/components/Sortable';
import { errorMessage } from '@/lib/api-client';
import { toastOutcome } from '@/components/admin-toasts';
import { useTemplateList } from '@/features/template-admin/api/get-template-list';
import { useReorderTemplates } from '@/features/template-admin/api/reorder-template';
import { reorderChanges, sortTemplates } from '@/features/template-admin/lib/reorder';
import type { TemplateView } from '@/features/template-admin/types';
import { TemplateFormModal } from './TemplateFormModal';
import {
  ReorderingContext,
  TemplateActionsCell,
  TemplateOrderCell,
  TemplateRow,
  TemplateThumbnailCell,
} from './TemplateRow';

/** The administrator's themes (spec 2 "Admin templates screen"): list, edit, view, order, delete, thumbnail. */
export function TemplateAdminScreen() {
  const { t } = useTranslation();
  const list = useTemplateList();
  const reorder = useReorderTemplates();
  const [editing, setEditing] = useState<TemplateView | null>(null);
  // The order just dropped, shown until the refreshed list arrives.
  const [moved, setMoved] = useState<TemplateView[] | null>(null);

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <Alert testId="template-admin-error">{errorMessage(list.error)}</Alert>;

  const templates = moved ?? sortTemplates(list.data);

  const move = (fromId: number, toId: number) => {
    const changes = reorderChanges(templates, fromId, toId);
    if (changes.length === 0) return;
    const order = new Map(changes.map((change) => [change.id, change.order]));
    setMoved(
      sortTemplates(
        templates.map((template) => ({ ...template, order: order.get(template.id) ?? template.order })),
      ),
    );
    reorder.mutate(changes, { ...toastOutcome(t), onSettled: () => setMoved(null) });
  };
  const step = (template: TemplateView, by: -1 | 1) => {
    const neighbour = templates[templates.findIndex((item) => item.id === template.id) + by];
    if (neighbour) move(template.id, neighbour.id);
  };

  // The themes' order is their own `order` (changed by dragging or the arrows): the list takes no
  // sort parameter, so the headers do not sort.
  const columns: DataColumn<TemplateView>[] = [
    {
      id: 'order',
      header: () => t('templateAdmin.order'),
      cell: ({ row }) => (
        <TemplateOrderCell
          isFirst={row.index === 0}
          isLast={row.index === templates.length - 1}
          onMove={step}
        />
      ),
      meta: { className: 'template-admin-order' },
    },
    {
      id: 'thumbnail',
      header: () => t('templateAdmin.thumbnail'),
      cell: () => <TemplateThumbnailCell />,
      meta: { className: 'template-admin-thumb' },
    },
    {
      id: 'name',
      header: () => `${t('templateAdmin.category')} / ${t('templateAdmin.name')}`,
      cell: ({ row }) => (
        <>
          <span className="muted" data-testid="template-category-label">
            {row.original.category}
          </span>
          {' / '}
          <strong data-testid="template-name-label">{row.original.name}</strong>
          {row.original.description && <div className="muted small">{row.original.description}</div>}
        </>
      ),
    },
    {
      id: 'published',
      header: () => t('templateAdmin.published'),
      cell: ({ row }) => {
        const published = row.original.is_published === '1';
        return (
          <span
            className={`badge ${published ? 'badge-success' : 'badge-muted'}`}
            data-testid="template-published-state"
            data-published={row.original.is_published}
          >
            {published ? t('templateAdmin.published') : t('templateAdmin.unpublished')}
          </span>
        );
      },
    },
    {
      id: 'actions',
      header: () => t('common.actions'),
      cell: () => <TemplateActionsCell onEdit={setEditing} />,
      meta: { className: 'actions-cell' },
    },
  ];

  return (
    <div className="page" data-testid="template-admin">
      <header className="page-header">
        <h1>{t('templateAdmin.title')}</h1>
      </header>
      {templates.length === 0 ? (
        <p className="card empty muted" data-testid="template-admin-empty">
          {t('templateAdmin.empty')}
        </p>
      ) : (
        <ReorderingContext value={reorder.isPending}>
          <SortableList ids={templates.map((template) => template.id)} onMove={move}>
            <DataTable
              data={templates}
              columns={columns}
              getRowId={(template) => String(template.id)}
              testId="template-admin-table"
              rowTestId={(template) => `template-row-${template.id}`}
              rowComponent={TemplateRow}
              label={t('templateAdmin.title')}
            />
          </SortableList>
        </ReorderingContext>
      )}
      {editing && <TemplateFormModal template={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
