import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/PageHeader';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, Navigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/get-user';
import type { ProjectDetail } from '@/lib/types';
import { useDeleteField } from '@/features/collections/api/delete-field';
import { useTable } from '@/features/collections/api/get-table';
import { useReorderFields } from '@/features/collections/api/reorder-fields';
import { FieldModal } from '@/features/collections/components/FieldModal';
import { SortableFieldList } from '@/features/collections/components/SortableFieldList';
import {
  useLeaveOnError,
  useNumberParam,
  useProjectOrLeave,
} from '@/features/collections/components/use-project-route';
import type { Field, Table } from '@/features/collections/types';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';

type Editing = { field: Field | undefined } | null;

function FieldManager({ project, table }: { project: ProjectDetail; table: Table }) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const { data: user } = useUser();
  const deleteField = useDeleteField();
  const reorder = useReorderFields();
  const [editing, setEditing] = useState<Editing>(null);
  /** The order after local moves; null until something moves (then Save order appears). */
  const [moved, setMoved] = useState<Field[] | null>(null);
  const fields = moved ?? table.fields;
  const uploadPrefix = user ? [user.id, project.id, table.id] : [project.id, table.id];

  const remove = async (field: Field) => {
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteField', { name: field.name }),
      message: t('kit.confirm.deleteFieldMessage'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deleteField.mutate(
      { id: field.id, tableId: table.id },
      {
        onSuccess: () => {
          setMoved((current) => current?.filter((item) => item.id !== field.id) ?? null);
          toast.success(t('collections.fields.deleted'));
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const saveOrder = () => {
    if (!moved) return;
    reorder.mutate(
      { tableId: table.id, fields: moved.map((field) => field.id) },
      {
        onSuccess: () => {
          setMoved(null);
          toast.success(t('collections.fields.orderSaved'));
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  return (
    <section className="page" data-testid="fields-page">
      <nav className="breadcrumbs">
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <Link to={paths.projectTables.build({ projectId: project.id })}>{t('collections.title')}</Link> /{' '}
        <Link to={paths.projectTable.build({ projectId: project.id, tableId: table.id })}>{table.name}</Link>{' '}
        / <span>{t('collections.fields.title')}</span>
      </nav>
      <PageHeader
        title={
          <>
            {t('collections.fields.title')}: {table.name}
          </>
        }
        as="div"
      >
        {moved && (
          <ActionButton
            variant="primary"
            onClick={saveOrder}
            disabled={reorder.isPending}
            testId="save-order"
          >
            {t('collections.fields.saveOrder')}
          </ActionButton>
        )}
        <ButtonLink
          to={paths.projectTableData.build({ projectId: project.id, tableId: table.id })}
          testId="fields-browse"
        >
          {t('collections.browse')}
        </ButtonLink>
        <ActionButton variant="primary" onClick={() => setEditing({ field: undefined })} testId="add-field">
          + {t('collections.fields.add')}
        </ActionButton>
      </PageHeader>
      {fields.length === 0 ? (
        <p className="card empty muted">{t('collections.fields.empty')}</p>
      ) : (
        <SortableFieldList
          fields={fields}
          onMove={setMoved}
          onEdit={(field) => setEditing({ field })}
          onDelete={(field) => void remove(field)}
        />
      )}
      {editing && (
        <FieldModal
          tableId={table.id}
          field={editing.field}
          otherTables={project.tables.filter((other) => other.id !== table.id)}
          uploadPrefix={uploadPrefix}
          onClose={() => setEditing(null)}
          onSaved={() => {
            toast.success(t('collections.fields.saved'));
            // A new or renamed field resets local moves to the server's order.
            setMoved(null);
          }}
        />
      )}
      {confirmDialog}
    </section>
  );
}

/** "/project/{project_id}/table/{table_id}/fields". */
export function FieldsRoute() {
  const projectId = useNumberParam('projectId');
  const tableId = useNumberParam('tableId');
  const project = useProjectOrLeave(projectId);
  const table = useTable(tableId);
  useLeaveOnError(table.error, paths.projectTables.build({ projectId }));
  if (!Number.isInteger(projectId)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data || !table.data) return <PageLoader />;
  return <FieldManager project={project.data} table={table.data} />;
}
