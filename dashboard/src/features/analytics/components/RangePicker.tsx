import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '@/components/ui/button-class';
import {
  RANGE_PRESETS,
  type DateRange,
  type RangeChoice,
  type RangePreset,
} from '@/features/analytics/lib/range';

interface RangePickerProps {
  choice: RangeChoice;
  /** Today (UTC): the last day that can be picked. */
  today: string;
  onPreset: (preset: RangePreset) => void;
  onRange: (range: DateRange) => void;
}

/**
 * The report's days: the presets as toggle buttons (the chosen one pressed), and two dates for
 * any other range, applied together so the report is not asked for a half-typed one.
 */
export function RangePicker({ choice, today, onPreset, onRange }: RangePickerProps) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(choice.range.from);
  const [to, setTo] = useState(choice.range.to);
  const valid = from !== '' && to !== '' && from <= to && to <= today;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onRange({ from, to });
  };

  return (
    <div className="analytics-range">
      <div
        className="segmented"
        role="group"
        aria-label={t('analytics.range.label')}
        data-testid="analytics-presets"
      >
        {RANGE_PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={choice.preset === preset}
            onClick={() => onPreset(preset)}
            data-testid={`analytics-range-${preset}`}
          >
            {t(`analytics.range.presets.${preset}`)}
          </button>
        ))}
      </div>
      <form className="analytics-dates" onSubmit={apply} aria-label={t('analytics.range.custom')}>
        <label className="toolbar-item">
          <span>{t('analytics.range.from')}</span>
          <input
            type="date"
            value={from}
            max={to || today}
            onChange={(event) => setFrom(event.target.value)}
            data-testid="analytics-from"
          />
        </label>
        <label className="toolbar-item">
          <span>{t('analytics.range.to')}</span>
          <input
            type="date"
            value={to}
            min={from || undefined}
            max={today}
            onChange={(event) => setTo(event.target.value)}
            data-testid="analytics-to"
          />
        </label>
        <button
          type="submit"
          className={buttonClass('default', 'small')}
          disabled={!valid}
          data-testid="analytics-apply"
        >
          {t('analytics.range.apply')}
        </button>
      </form>
    </div>
  );
}
