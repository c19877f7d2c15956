import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { DataTable, type DataColumn, type RowSelectionState } from '@/components/DataTable';
import { PageLoader } from '@/components/PageLoader';
import { Pager } from '@/components/Pager';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import type { ProjectDetail } from '@/lib/types';
import { useDeleteFormEntries } from '@/features/form-history/api/delete-form-entries';
import { formHistoryExportUrl } from '@/features/form-history/api/export-form-history';
import { useFormHistory } from '@/features/form-history/api/get-form-history';
import { isFormHistoryOrder, type FormEntry, type HistoryFilter } from '@/features/form-history/types';
import { FormHistorySettingsModal } from './FormHistorySettingsModal';
import { HistoryFilters } from './HistoryFilters';
import { HistoryNotices } from './HistoryNotices';
import { SubmissionData } from './SubmissionData';
import { SubmissionDialog } from './SubmissionDialog';
import { ActionButton } from '@/components/ActionButton';

/** The filter kept in the address (`?q=&from=&to=`), so a reload or a link shows the same list. */
function readFilter(params: URLSearchParams): HistoryFilter {
  const day = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');
  return { q: params.get('q') ?? '', from: day(params.get('from')), to: day(params.get('to')) };
}

/** The address's query for a filter and page (empty values and the first page left out). */
function listSearch(filter: HistoryFilter, page: number): Record<string, string> {
  const search: Record<string, string> = {};
  if (filter.q) search.q = filter.q;
  if (filter.from) search.from = filter.from;
  if (filter.to) search.to = filter.to;
  if (page > 1) search.page = String(page);
  return search;
}

/**
 * Form history (route name form-history): submissions searched and filtered by date on the server,
 * their CSV export, selection, bulk delete, the settings (order, thank-you page, notification
 * address), and the notices about the per-site cap and an unconfirmed address.
 */
export function FormHistoryList({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [confirmDialog, askConfirm] = useConfirm();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const filter = readFilter(searchParams);
  const history = useFormHistory(project.id, page, filter);
  const deleteEntries = useDeleteFormEntries();
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [opened, setOpened] = useState<FormEntry | null>(null);

  if (history.isError && !history.data)
    return <Alert testId="form-history-error">{errorMessage(history.error)}</Alert>;
  if (!history.data) return <PageLoader />;

  const entries = history.data.history.data;
  const meta = history.data.project.meta;
  const storedOrder = meta.formHistoryOrderBy ?? '-created_at';
  const order = isFormHistoryOrder(storedOrder) ? storedOrder : '-created_at';
  // Only rows of this page count (a selection never outlives its page).
  const selectedHere = entries.filter((entry) => rowSelection[String(entry.id)]).map((entry) => entry.id);

  const columns: DataColumn<FormEntry>[] = [
    {
      id: 'created_at',
      header: () => t('formHistory.date'),
      // The date opens the whole message (on a phone, the date and subject are all the row shows).
      cell: ({ row }) => (
        <button
          type="button"
          className="link-button"
          onClick={() => setOpened(row.original)}
          aria-label={t('formHistory.open', { date: fmt.dateTime(row.original.created_at) })}
          data-testid="entry-date"
        >
          {fmt.dateTime(row.original.created_at)}
        </button>
      ),
      meta: { className: 'nowrap' },
    },
    {
      id: 'url',
      header: () => t('formHistory.url'),
      cell: ({ row }) => row.original.url,
      meta: { className: 'break-all hide-on-phone' },
    },
    {
      id: 'submit',
      header: () => t('formHistory.submit'),
      cell: ({ row }) => row.original.submit,
      meta: { className: 'hide-on-phone' },
    },
    {
      id: 'to',
      header: () => t('formHistory.to'),
      cell: ({ row }) => row.original.to,
      meta: { className: 'break-all hide-on-phone' },
    },
    {
      id: 'subject',
      header: () => t('formHistory.subject'),
      cell: ({ row }) => <span data-testid="entry-subject">{row.original.subject}</span>,
      meta: { className: 'wrap-anywhere' },
    },
    {
      id: 'data',
      header: () => t('formHistory.data'),
      cell: ({ row }) => <SubmissionData html={row.original.data} />,
      meta: { className: 'hide-on-phone' },
    },
  ];

  const goTo = (next: number) => {
    setRowSelection({});
    setSearchParams(listSearch(filter, next));
  };
  const filtered = filter.q !== '' || filter.from !== '' || filter.to !== '';

  const removeSelected = async () => {
    if (selectedHere.length === 0) return;
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteEntries', { count: selectedHere.length }),
      message: t('kit.confirm.irreversible'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deleteEntries.mutate(
      { projectId: project.id, selected: selectedHere },
      {
        onSuccess: () => {
          setRowSelection({});
          toast.success(t('formHistory.deleted'));
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  return (
    <section className="page" data-testid="form-history-page">
      <nav className="breadcrumbs">
        <Link to={paths.home.build()}>{t('projects.title')}</Link> /{' '}
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <span>{t('formHistory.title')}</span>
      </nav>
      <div className="page-header">
        <h1>{t('formHistory.title')}</h1>
        <ActionButton onClick={() => setSettingsOpen(true)} testId="form-history-settings-open">
          {t('formHistory.settings')}
        </ActionButton>
      </div>
      <HistoryNotices projectId={project.id} limit={history.data.limit} />
      <HistoryFilters
        // A new filter from the address (back, a link) resets what the inputs hold.
        key={`${filter.q}|${filter.from}|${filter.to}`}
        filter={filter}
        onApply={(next) => {
          setRowSelection({});
          setSearchParams(listSearch(next, 1));
        }}
        exportHref={formHistoryExportUrl(project.id, filter)}
      />
      <DataTable
        data={entries}
        columns={columns}
        getRowId={(entry) => String(entry.id)}
        testId="form-history-table"
        tableProps={{ 'data-total': history.data.history.total }}
        rowTestId="form-entry"
        rowProps={(entry) => ({ 'data-entry-id': entry.id })}
        label={t('formHistory.title')}
        empty={
          <span data-testid="form-history-empty">
            {filtered ? t('formHistory.filter.noMatch') : t('formHistory.empty')}
          </span>
        }
        selection={{
          state: rowSelection,
          onChange: setRowSelection,
          selectAllLabel: t('formHistory.selectAll'),
          rowLabel: (entry) => t('formHistory.select', { date: fmt.dateTime(entry.created_at) }),
          checkboxTestId: 'form-entry-select',
          selectAllTestId: 'form-history-select-all',
          actions: (
            <ActionButton
              size="small"
              variant="danger"
              disabled={deleteEntries.isPending}
              onClick={() => void removeSelected()}
              testId="form-history-delete"
            >
              {t('formHistory.deleteSelected')}
            </ActionButton>
          ),
        }}
      />
      <Pager page={history.data.history} onPage={goTo} />
      {settingsOpen && (
        <FormHistorySettingsModal
          projectId={project.id}
          order={order}
          pages={project.pages.filter((p) => p.table_id === null)}
          thankYouPage={typeof meta.formThankYouPage === 'number' ? meta.formThankYouPage : null}
          onClose={() => setSettingsOpen(false)}
        />
      )}
      {opened && <SubmissionDialog entry={opened} onClose={() => setOpened(null)} />}
      {confirmDialog}
    </section>
  );
}
