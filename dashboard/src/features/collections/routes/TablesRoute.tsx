import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, Navigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import type { ProjectDetail, TableSummary } from '@/lib/types';
import { useDeleteTable } from '@/features/collections/api/delete-table';
import { useNumberParam, useProjectOrLeave } from '@/features/collections/components/use-project-route';
import { ButtonLink, ButtonLinks } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';
import { ListTable } from '@/components/ListTable';

/** A collection's links in its row: edit it, its fields, its records. */
const TABLE_LINKS = [
  { path: paths.projectTable, testId: 'collection-edit', label: 'collections.edit' },
  { path: paths.projectTableFields, testId: 'collection-fields', label: 'collections.fieldsLink' },
  { path: paths.projectTableData, testId: 'collection-browse', label: 'collections.browse' },
] as const;

function TableList({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const deleteTable = useDeleteTable();

  const remove = async (table: TableSummary) => {
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteCollection', { name: table.name }),
      message: t('kit.confirm.deleteCollectionMessage'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deleteTable.mutate(
      { id: table.id, projectId: project.id },
      {
        onSuccess: () => toast.success(t('collections.deleted')),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  return (
    <section className="page" data-testid="collections-page">
      <nav className="breadcrumbs">
        <Link to={paths.home.build()}>{t('projects.title')}</Link> /{' '}
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <span>{t('collections.title')}</span>
      </nav>
      <div className="page-header">
        <h1>{t('collections.title')}</h1>
        <ButtonLink
          to={paths.projectTableNew.build({ projectId: project.id })}
          variant="primary"
          testId="new-collection"
        >
          + {t('collections.new')}
        </ButtonLink>
      </div>
      <ListTable
        isEmpty={project.tables.length === 0}
        empty={{ text: t('collections.empty'), testId: 'collections-empty', className: 'card empty muted' }}
        className="card table-card"
        testId="collections-table"
        headers={[t('collections.name'), t('collections.slug')]}
        actions
      >
        {project.tables.map((table) => (
          <tr key={table.id} data-testid="collection-row" data-table-id={table.id}>
            <td>
              <Link to={paths.projectTableData.build({ projectId: project.id, tableId: table.id })}>
                {table.name}
              </Link>
            </td>
            <td>
              <code>{table.slug}</code>
            </td>
            <td className="actions-cell">
              <div className="button-row">
                <ButtonLinks
                  size="small"
                  links={TABLE_LINKS.map(({ path, testId, label }) => ({
                    to: path.build({ projectId: project.id, tableId: table.id }),
                    testId,
                    label: t(label),
                  }))}
                />
                <ActionButton
                  size="small"
                  variant="danger-ghost"
                  onClick={() => void remove(table)}
                  disabled={deleteTable.isPending}
                  testId="collection-delete"
                >
                  {t('common.delete')}
                </ActionButton>
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
      {confirmDialog}
    </section>
  );
}

/** "/project/{project_id}/tables" (route name project-tables). */
export function TablesRoute() {
  const id = useNumberParam('projectId');
  const project = useProjectOrLeave(id);
  if (!Number.isInteger(id)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data) return <PageLoader />;
  return <TableList project={project.data} />;
}
