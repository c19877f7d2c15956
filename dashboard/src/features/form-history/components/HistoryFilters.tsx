import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryFilter } from '@/features/form-history/types';
import { ActionButton } from '@/components/ActionButton';

interface Props {
  filter: HistoryFilter;
  onApply: (filter: HistoryFilter) => void;
  /** The CSV download of every entry the applied filter keeps. */
  exportHref: string;
}

/**
 * Search, date range and export of the form history. The filter applies when the form is sent
 * (Enter or the button), not on every keystroke; the export follows the filter in force.
 */
export function HistoryFilters({ filter, onApply, exportHref }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(filter);
  const backwards = draft.from !== '' && draft.to !== '' && draft.from > draft.to;
  const filtered = filter.q !== '' || filter.from !== '' || filter.to !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!backwards) onApply({ ...draft, q: draft.q.trim() });
  };

  const clear = () => {
    setDraft({ q: '', from: '', to: '' });
    onApply({ q: '', from: '', to: '' });
  };

  return (
    <div className="toolbar">
      <form
        className="toolbar-item history-filters"
        role="search"
        onSubmit={submit}
        data-testid="form-history-filters"
      >
        <input
          type="search"
          className="toolbar-search"
          placeholder={t('formHistory.filter.search')}
          aria-label={t('formHistory.filter.search')}
          value={draft.q}
          maxLength={255}
          onChange={(event) => setDraft({ ...draft, q: event.target.value })}
          data-testid="form-history-search"
        />
        {(['from', 'to'] as const).map((bound) => (
          <label key={bound}>
            <span>{t(`formHistory.filter.${bound}`)}</span>{' '}
            <input
              type="date"
              value={draft[bound]}
              onChange={(event) => setDraft({ ...draft, [bound]: event.target.value })}
              aria-invalid={backwards || undefined}
              aria-describedby={backwards ? 'form-history-range-error' : undefined}
              data-testid={`form-history-${bound}`}
            />
          </label>
        ))}
        <button
          type="submit"
          className="button button-small"
          disabled={backwards}
          data-testid="form-history-apply"
        >
          {t('formHistory.filter.apply')}
        </button>
        {filtered && (
          <ActionButton size="small" onClick={clear} testId="form-history-clear">
            {t('formHistory.filter.clear')}
          </ActionButton>
        )}
      </form>
      {backwards && (
        <small
          className="field-error"
          id="form-history-range-error"
          role="alert"
          data-testid="form-history-range-error"
        >
          {t('formHistory.filter.backwards')}
        </small>
      )}
      <a className="button toolbar-item" href={exportHref} download data-testid="form-history-export">
        {t('formHistory.filter.export')}
      </a>
    </div>
  );
}
