import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { toastOutcome } from '@/components/admin-toasts';
import { useTemplateList } from '@/features/template-admin/api/get-template-list';
import { useReorderTemplates } from '@/features/template-admin/api/reorder-template';
import { reorderChanges, sortTemplates } from '@/features/template-admin/lib/reorder';
import type { TemplateView } from '@/features/template-admin/types';
import { TemplateFormModal } from './TemplateFormModal';
import { TemplateRow } from './TemplateRow';

/** The administrator's themes (spec 2 "Admin templates screen"): list, edit, view, order, delete, thumbnail. */
export function TemplateAdminScreen() {
  const { t } = useTranslation();
  const list = useTemplateList();
  const reorder = useReorderTemplates();
  const [editing, setEditing] = useState<TemplateView | null>(null);
  // The order just dropped, shown until the refreshed list arrives.
  const [moved, setMoved] = useState<TemplateView[] | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

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
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) move(Number(active.id), Number(over.id));
  };

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
        <section className="card table-card">
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <table className="data-table">
              <thead>
                <tr>
                  <th>{t('templateAdmin.order')}</th>
                  <th>{t('templateAdmin.thumbnail')}</th>
                  <th>
                    {t('templateAdmin.category')} / {t('templateAdmin.name')}
                  </th>
                  <th>{t('templateAdmin.published')}</th>
                  <th>{t('common.actions')}</th>
                </tr>
              </thead>
              <SortableContext
                items={templates.map((template) => template.id)}
                strategy={verticalListSortingStrategy}
              >
                <tbody>
                  {templates.map((template, index) => (
                    <TemplateRow
                      key={template.id}
                      template={template}
                      isFirst={index === 0}
                      isLast={index === templates.length - 1}
                      reordering={reorder.isPending}
                      onEdit={setEditing}
                      onMove={step}
                    />
                  ))}
                </tbody>
              </SortableContext>
            </table>
          </DndContext>
        </section>
      )}
      {editing && <TemplateFormModal template={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
