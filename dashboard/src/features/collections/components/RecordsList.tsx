import { useState, type MouseEvent, type ReactNode } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/Alert';
import { DataTable, type DataColumn, type RowSelectionState } from '@/components/DataTable';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { apiBlob, errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { dataQueryOptions, useData } from '@/features/collections/api/get-data';
import { useDeletePosts } from '@/features/collections/api/delete-posts';
import { excerpt } from '@/features/collections/lib/excerpt';
import { RECORDS_PAGE_SIZE, type Field, type Post } from '@/features/collections/types';
import { ImportButton } from './ImportButton';
import { RecordCell } from './RecordCell';
import type { RecordScope } from './record-scope';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';

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
    // The top bar stays in view while the long list scrolls under it (sticky).
    <div className={`bulk-bar bulk-bar-${position}`} data-testid={`bulk-bar-${position}`}>
      <span className="muted">{t('records.selected', { count })}</span>
      <ActionButton
        size="small"
        variant="danger"
        disabled={count === 0 || busy}
        onClick={onDelete}
        testId={`bulk-delete-${position}`}
      >
        {t('records.deleteSelected')}
      </ActionButton>
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
/**
 * An export download. The owner's is a plain link (the session cookie goes with it); the client
 * panel's token goes only in its X-Client-Token header, so the panel fetches the file itself and
 * hands it to the browser to save.
 */
function ExportLink({
  scope,
  href,
  filename,
  title,
  testId,
  children,
}: {
  scope: RecordScope;
  href: string;
  filename: string;
  title?: string;
  testId: string;
  children: ReactNode;
}) {
  const download = (event: MouseEvent<HTMLAnchorElement>) => {
    if (scope.kind !== 'client') return;
    event.preventDefault();
    apiBlob(href).then(
      (blob) => {
        const url = URL.createObjectURL(blob);
        const link = document.createElement('a');
        link.href = url;
        link.download = filename;
        link.click();
        URL.revokeObjectURL(url);
      },
      (error: unknown) => toast.error(errorMessage(error)),
    );
  };
  return (
    <a
      className="button"
      href={href}
      download={filename}
      title={title}
      onClick={download}
      data-testid={testId}
    >
      {children}
    </a>
  );
}

export function RecordsList({ scope, tableId }: { scope: RecordScope; tableId: number }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [confirmDialog, askConfirm] = useConfirm();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const data = useData(tableId, page);
  const deletePosts = useDeletePosts();
  const fields = data.data?.fields ?? [];
  const relationNames = useRelationNames(fields);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});

  if (data.isError && !data.data) return <Alert testId="records-error">{errorMessage(data.error)}</Alert>;
  if (!data.data) return <PageLoader />;

  const { table, posts, total } = data.data;
  const visibleFields = fields.filter((field) => !field.meta.hideAtListing);
  const pages = Math.max(1, Math.ceil(total / RECORDS_PAGE_SIZE));
  // Only rows of this page count (a selection never outlives its page).
  const selectedOnPage = posts.filter((post) => rowSelection[String(post.id)]).map((post) => post.id);

  const columns: DataColumn<Post>[] = [
    ...(table.meta.includeTitle
      ? [
          {
            id: 'title',
            header: () => t('records.titleColumn'),
            cell: ({ row }: { row: { original: Post } }) => (
              <Link to={scope.editLink(table.id, row.original.id)} data-testid="record-title">
                {excerpt(row.original.name) || `#${row.original.id}`}
              </Link>
            ),
            meta: { className: 'title-cell' },
          },
        ]
      : []),
    ...(table.meta.hasSingular
      ? [
          {
            id: 'slug',
            header: () => t('records.slugColumn'),
            cell: ({ row }: { row: { original: Post } }) => <code>{excerpt(row.original.slug)}</code>,
          },
        ]
      : []),
    ...(table.meta.includeDate
      ? [
          {
            id: 'date',
            header: () => t('records.date'),
            cell: ({ row }: { row: { original: Post } }) => fmt.date(row.original.created_at),
            meta: { className: 'nowrap' },
          },
        ]
      : []),
    ...visibleFields.map((field) => ({
      id: `field-${field.id}`,
      header: () => field.name,
      cell: ({ row }: { row: { original: Post } }) => (
        <span data-field-id={field.id}>
          <RecordCell
            field={field}
            value={row.original.fields.find((entry) => entry.field_id === field.id)?.value}
            relationNames={field.meta.table ? relationNames.get(field.meta.table) : undefined}
          />
        </span>
      ),
    })),
    {
      id: 'actions',
      header: () => <span className="sr-only">{t('common.actions')}</span>,
      cell: ({ row }: { row: { original: Post } }) => (
        <ButtonLink to={scope.editLink(table.id, row.original.id)} size="small" testId="record-edit">
          {t('records.edit')}
        </ButtonLink>
      ),
      meta: { className: 'actions-cell' },
    },
  ];

  const goTo = (next: number) => {
    setRowSelection({});
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
          setRowSelection({});
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
          <ExportLink
            scope={scope}
            href={scope.exportLink(table.id, 'csv')}
            filename={`${table.slug}.csv`}
            testId="export-csv"
          >
            {t('records.exportCsv')}
          </ExportLink>
          <ExportLink
            scope={scope}
            href={scope.exportLink(table.id, 'csv', { bom: true })}
            filename={`${table.slug}.csv`}
            title={t('records.exportExcelHint')}
            testId="export-csv-excel"
          >
            {t('records.exportExcel')}
          </ExportLink>
          <ExportLink
            scope={scope}
            href={scope.exportLink(table.id, 'json')}
            filename={`${table.slug}.json`}
            testId="export-json"
          >
            {t('records.exportJson')}
          </ExportLink>
          <ImportButton tableId={table.id} />
          <ButtonLink to={scope.newLink(table.id)} variant="primary" testId="new-record">
            + {t('records.new')}
          </ButtonLink>
        </div>
      </div>
      <p className="muted" data-testid="records-total" data-total={total}>
        {t('records.total', { total })}
      </p>
      {posts.length > TOP_BAR_ABOVE && bar('top')}
      <DataTable
        data={posts}
        columns={columns}
        getRowId={(post) => String(post.id)}
        className="records-table"
        testId="records-table"
        rowTestId="record-row"
        rowProps={(post) => ({ 'data-post-id': post.id })}
        label={table.meta.plural || table.name}
        empty={<span data-testid="records-empty">{t('records.empty')}</span>}
        selection={{
          state: rowSelection,
          onChange: setRowSelection,
          selectAllLabel: t('records.selectAll'),
          rowLabel: (post) => t('records.select', { name: post.name || `#${post.id}` }),
          checkboxTestId: 'record-select',
        }}
      />
      {bar('bottom')}
      {pages > 1 && (
        <nav className="pagination" aria-label={t('records.pagination')} data-testid="pagination">
          <ActionButton
            size="small"
            disabled={page <= 1}
            onClick={() => goTo(page - 1)}
            testId="page-previous"
          >
            ‹ {t('records.previous')}
          </ActionButton>
          <span data-testid="page-indicator">{t('records.page', { page, pages })}</span>
          <ActionButton
            size="small"
            disabled={page >= pages}
            onClick={() => goTo(page + 1)}
            testId="page-next"
          >
            {t('records.next')} ›
          </ActionButton>
        </nav>
      )}
      {confirmDialog}
    </section>
  );
}
