import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { Pager } from '@/components/Pager';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useSelection } from '@/lib/use-selection';
import type { ProjectDetail } from '@/lib/types';
import { useDeleteFormEntries } from '@/features/form-history/api/delete-form-entries';
import { useFormHistory } from '@/features/form-history/api/get-form-history';
import { isFormHistoryOrder } from '@/features/form-history/types';
import { FormHistorySettingsModal } from './FormHistorySettingsModal';
import { HistoryNotices } from './HistoryNotices';
import { SubmissionData } from './SubmissionData';

/**
 * Form history (route name form-history): submissions, selection, bulk delete, the settings (order,
 * notification address), and the notices about the per-site cap and an unconfirmed address.
 */
export function FormHistoryList({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [confirmDialog, askConfirm] = useConfirm();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number(searchParams.get('page')) || 1);
  const history = useFormHistory(project.id, page);
  const deleteEntries = useDeleteFormEntries();
  const selection = useSelection(history.data?.history.data.map((entry) => entry.id) ?? []);
  const [settingsOpen, setSettingsOpen] = useState(false);

  if (history.isError && !history.data)
    return <Alert testId="form-history-error">{errorMessage(history.error)}</Alert>;
  if (!history.data) return <PageLoader />;

  const entries = history.data.history.data;
  const storedOrder = history.data.project.meta.formHistoryOrderBy ?? '-created_at';
  const order = isFormHistoryOrder(storedOrder) ? storedOrder : '-created_at';
  const selectedHere = selection.chosen;

  const goTo = (next: number) => {
    selection.clear();
    setSearchParams(next > 1 ? { page: String(next) } : {});
  };

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
          selection.clear();
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
        <button
          type="button"
          className="button"
          onClick={() => setSettingsOpen(true)}
          data-testid="form-history-settings-open"
        >
          {t('formHistory.settings')}
        </button>
      </div>
      <HistoryNotices projectId={project.id} limit={history.data.limit} />
      <div className="bulk-bar" data-testid="form-history-bulk-bar">
        <span className="muted">{t('formHistory.selected', { count: selectedHere.length })}</span>
        <button
          type="button"
          className="button button-small button-danger"
          disabled={selectedHere.length === 0 || deleteEntries.isPending}
          onClick={() => void removeSelected()}
          data-testid="form-history-delete"
        >
          {t('formHistory.deleteSelected')}
        </button>
      </div>
      <div className="card table-card">
        <table
          className="data-table"
          data-testid="form-history-table"
          data-total={history.data.history.total}
        >
          <thead>
            <tr>
              <th className="check-cell">
                <input
                  type="checkbox"
                  aria-label={t('formHistory.selectAll')}
                  checked={selection.allChosen}
                  disabled={entries.length === 0}
                  onChange={(event) => selection.chooseAll(event.target.checked)}
                  data-testid="form-history-select-all"
                />
              </th>
              <th>{t('formHistory.date')}</th>
              <th>{t('formHistory.url')}</th>
              <th>{t('formHistory.submit')}</th>
              <th>{t('formHistory.to')}</th>
              <th>{t('formHistory.subject')}</th>
              <th>{t('formHistory.data')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.length === 0 && (
              <tr>
                <td colSpan={7} className="empty muted" data-testid="form-history-empty">
                  {t('formHistory.empty')}
                </td>
              </tr>
            )}
            {entries.map((entry) => (
              <tr
                key={entry.id}
                data-testid="form-entry"
                data-entry-id={entry.id}
                className={selection.isChosen(entry.id) ? 'is-selected' : undefined}
              >
                <td className="check-cell">
                  <input
                    type="checkbox"
                    aria-label={t('formHistory.select', { date: fmt.dateTime(entry.created_at) })}
                    checked={selection.isChosen(entry.id)}
                    onChange={(event) => selection.toggle(entry.id, event.target.checked)}
                    data-testid="form-entry-select"
                  />
                </td>
                <td className="nowrap" data-testid="entry-date">
                  {fmt.dateTime(entry.created_at)}
                </td>
                <td className="break-all">{entry.url}</td>
                <td>{entry.submit}</td>
                <td className="break-all">{entry.to}</td>
                <td data-testid="entry-subject">{entry.subject}</td>
                <td>
                  <SubmissionData html={entry.data} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={history.data.history} onPage={goTo} />
      {settingsOpen && (
        <FormHistorySettingsModal
          projectId={project.id}
          order={order}
          onClose={() => setSettingsOpen(false)}
        />
      )}
      {confirmDialog}
    </section>
  );
}
