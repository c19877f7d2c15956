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
  const [draft, setDraft] = useState<DateRange>(choice.range);
  const { from, to } = draft;
  const valid = from !== '' && to !== '' && from <= to && to <= today;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onRange(draft);
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
        {(['from', 'to'] as const).map((bound) => (
          <label key={bound} className="toolbar-item">
            <span>{t(`analytics.range.${bound}`)}</span>
            <input
              type="date"
              value={draft[bound]}
              // From no later than the end; to no later than today.
              min={bound === 'to' ? draft.from || undefined : undefined}
              max={bound === 'from' ? draft.to || today : today}
              onChange={(event) => setDraft({ ...draft, [bound]: event.target.value })}
              data-testid={`analytics-${bound}`}
            />
          </label>
        ))}
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
