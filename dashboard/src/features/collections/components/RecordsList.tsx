import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useSelection } from '@/lib/use-selection';
import { dataQueryOptions, useData } from '@/features/collections/api/get-data';
import { useDeletePosts } from '@/features/collections/api/delete-posts';
import { excerpt } from '@/features/collections/lib/excerpt';
import { RECORDS_PAGE_SIZE, type Field } from '@/features/collections/types';
import { ImportButton } from './ImportButton';
import { RecordCell } from './RecordCell';
import type { RecordScope } from './record-scope';

/** Above this many rows the bulk-delete bar is repeated at the top (spec §2). */
const TOP_BAR_ABOVE = 10;

function BulkBar({
  count,
  onDelete,
  busy,
  position,
}: {
  count: number;
  onDelete: () => void;
  busy: boolean;
  position: 'top' | 'bottom';
}) {
  const { t } = useTranslation();
  return (
    <div className="bulk-bar" data-testid={`bulk-bar-${position}`}>
      <span className="muted">{t('records.selected', { count })}</span>
      <button
        type="button"
        className="button button-small button-danger"
        disabled={count === 0 || busy}
        onClick={onDelete}
        data-testid={`bulk-delete-${position}`}
      >
        {t('records.deleteSelected')}
      </button>
    </div>
  );
}

/** Names of the first page of each relation target, to show names instead of ids. */
function useRelationNames(fields: Field[]): Map<number, Map<number, string>> {
  const targets = [
    ...new Set(
      fields.flatMap((field) => (field.type === 'relation' && field.meta.table ? [field.meta.table] : [])),
    ),
  ];
  const results = useQueries({ queries: targets.map((target) => dataQueryOptions(target, 1)) });
  // At most 100 names per target: cheap enough to rebuild on each render.
  const byTable = new Map<number, Map<number, string>>();
  results.forEach((result, index) => {
    const target = targets[index];
    if (target === undefined || !result.data) return;
    byTable.set(
      target,
      new Map(result.data.posts.map((post) => [post.id, post.name || post.slug || `#${post.id}`])),
    );
  });
  return byTable;
}

/** The records list (browse): one server page of 100 rows, selection, bulk delete, import and export. */
export function RecordsList({ scope, tableId }: { scope: RecordScope; tableId: number }) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const data = useData(tableId, page);
  const deletePosts = useDeletePosts();
  const fields = data.data?.fields ?? [];
  const relationNames = useRelationNames(fields);
  const selection = useSelection(data.data?.posts.map((post) => post.id) ?? []);

  if (data.isError && !data.data) return <Alert testId="records-error">{errorMessage(data.error)}</Alert>;
  if (!data.data) return <PageLoader />;

  const { table, posts, total } = data.data;
  const visibleFields = fields.filter((field) => !field.meta.hideAtListing);
  const pages = Math.max(1, Math.ceil(total / RECORDS_PAGE_SIZE));
  const selectedOnPage = selection.chosen;

  const goTo = (next: number) => {
    selection.clear();
    setSearchParams(next > 1 ? { page: String(next) } : {});
  };

  const removeSelected = async () => {
    if (selectedOnPage.length === 0) return;
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteRecords', { count: selectedOnPage.length }),
      message: t('kit.confirm.irreversible'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deletePosts.mutate(
      { tableId, selected: selectedOnPage },
      {
        onSuccess: () => {
          selection.clear();
          toast.success(t('records.bulkDeleted'));
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const bar = (position: 'top' | 'bottom') => (
    <BulkBar
      count={selectedOnPage.length}
      onDelete={() => void removeSelected()}
      busy={deletePosts.isPending}
      position={position}
    />
  );

  return (
    <section className="page" data-testid="records-page" data-table-id={table.id}>
      <nav className="breadcrumbs">
        <Link to={scope.projectLink}>{scope.projectName}</Link> / <span>{table.name}</span>
      </nav>
      <div className="page-header">
        <h1>{table.meta.plural || table.name}</h1>
        <div className="button-row">
          <a
            className="button"
            href={scope.exportLink(table.id, 'csv')}
            download={`${table.slug}.csv`}
            data-testid="export-csv"
          >
            {t('records.exportCsv')}
          </a>
          <a
            className="button"
            href={scope.exportLink(table.id, 'json')}
            download={`${table.slug}.json`}
            data-testid="export-json"
          >
            {t('records.exportJson')}
          </a>
          <ImportButton tableId={table.id} />
          <Link to={scope.newLink(table.id)} className="button button-primary" data-testid="new-record">
            + {t('records.new')}
          </Link>
        </div>
      </div>
      <p className="muted" data-testid="records-total" data-total={total}>
        {t('records.total', { total })}
      </p>
      {posts.length > TOP_BAR_ABOVE && bar('top')}
      <div className="card table-card">
        <table className="data-table records-table" data-testid="records-table">
          <thead>
            <tr>
              <th className="check-cell">
                <input
                  type="checkbox"
                  aria-label={t('records.selectAll')}
                  checked={selection.allChosen}
                  disabled={posts.length === 0}
                  onChange={(event) => selection.chooseAll(event.target.checked)}
                  data-testid="select-all"
                />
              </th>
              {table.meta.includeTitle && <th>{t('records.titleColumn')}</th>}
              {table.meta.hasSingular && <th>{t('records.slugColumn')}</th>}
              {table.meta.includeDate && <th>{t('records.date')}</th>}
              {visibleFields.map((field) => (
                <th key={field.id}>{field.name}</th>
              ))}
              <th className="actions-cell">
                <span className="sr-only">{t('common.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {posts.length === 0 && (
              <tr>
                <td colSpan={visibleFields.length + 5} className="empty muted" data-testid="records-empty">
                  {t('records.empty')}
                </td>
              </tr>
            )}
            {posts.map((post) => {
              const values = new Map(post.fields.map((entry) => [entry.field_id, entry.value]));
              return (
                <tr
                  key={post.id}
                  data-testid="record-row"
                  data-post-id={post.id}
                  className={selection.isChosen(post.id) ? 'is-selected' : undefined}
                >
                  <td className="check-cell">
                    <input
                      type="checkbox"
                      aria-label={t('records.select', { name: post.name || `#${post.id}` })}
                      checked={selection.isChosen(post.id)}
                      onChange={(event) => selection.toggle(post.id, event.target.checked)}
                      data-testid="record-select"
                    />
                  </td>
                  {table.meta.includeTitle && (
                    <td className="title-cell">
                      <Link to={scope.editLink(table.id, post.id)} data-testid="record-title">
                        {excerpt(post.name) || `#${post.id}`}
                      </Link>
                    </td>
                  )}
                  {table.meta.hasSingular && (
                    <td>
                      <code>{excerpt(post.slug)}</code>
                    </td>
                  )}
                  {table.meta.includeDate && <td className="nowrap">{formatDate(post.created_at)}</td>}
                  {visibleFields.map((field) => (
                    <td key={field.id} data-field-id={field.id}>
                      <RecordCell
                        field={field}
                        value={values.get(field.id)}
                        relationNames={field.meta.table ? relationNames.get(field.meta.table) : undefined}
                      />
                    </td>
                  ))}
                  <td className="actions-cell">
                    <Link
                      to={scope.editLink(table.id, post.id)}
                      className="button button-small"
                      data-testid="record-edit"
                    >
                      {t('records.edit')}
                    </Link>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {bar('bottom')}
      {pages > 1 && (
        <nav className="pagination" aria-label={t('records.pagination')} data-testid="pagination">
          <button
            type="button"
            className="button button-small"
            disabled={page <= 1}
            onClick={() => goTo(page - 1)}
            data-testid="page-previous"
          >
            ‹ {t('records.previous')}
          </button>
          <span data-testid="page-indicator">{t('records.page', { page, pages })}</span>
          <button
            type="button"
            className="button button-small"
            disabled={page >= pages}
            onClick={() => goTo(page + 1)}
            data-testid="page-next"
          >
            {t('records.next')} ›
          </button>
        </nav>
      )}
      {confirmDialog}
    </section>
  );
}
