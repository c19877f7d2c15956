import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageHeader } from '@/components/PageHeader';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import type { ProjectDetail } from '@/lib/types';
import { useAnalytics, useAnalyticsNow } from '@/features/analytics/api/get-analytics';
import type { AnalyticsReport } from '@/features/analytics/api/types';
import { customSearch, presetSearch, readRange, today as todayUtc } from '@/features/analytics/lib/range';
import { RangePicker } from './RangePicker';
import { ReportTables } from './ReportTables';
import { VisitsChart } from './VisitsChart';

/**
 * What other features add to the screen; the app composes them (features don't import each
 * other). Without them the screen only reads.
 */
export interface AnalyticsSlots {
  /** The on/off switch (the projects feature saves `meta.analytics`); `enabled` is the report's. */
  setting?: (project: ProjectDetail, enabled: boolean) => ReactNode;
  /** The redirects feature's form, its origin filled with a missing path; `onClose` when done. */
  redirectForm?: (projectId: number, path: string, onClose: () => void) => ReactNode;
}

/** Visitors in the last 5 minutes, from the report and then asked for again every 30 s. */
function NowFigure({ projectId, day, report }: { projectId: number; day: string; report: AnalyticsReport }) {
  const fmt = useFormat();
  const now = useAnalyticsNow(projectId, day, report);
  return <>{fmt.number(now.data ?? report.now)}</>;
}

function Totals({ projectId, day, report }: { projectId: number; day: string; report: AnalyticsReport }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const figures = [
    ['views', fmt.number(report.views)],
    ['visitors', fmt.number(report.visitors)],
    ['bots', fmt.number(report.bots)],
    ['now', <NowFigure key="now" projectId={projectId} day={day} report={report} />],
  ] as const;
  return (
    <dl className="analytics-totals" data-testid="analytics-totals">
      {figures.map(([name, value]) => (
        <div key={name} className={`card analytics-total analytics-total-${name}`}>
          <dt>{t(`analytics.totals.${name}`)}</dt>
          <dd data-testid={`analytics-total-${name}`}>{value}</dd>
          <dd className="muted small">{t(`analytics.totals.${name}Help`)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Nothing counted in the range, bots and missing pages included. */
function isEmpty(report: AnalyticsReport): boolean {
  return report.views === 0 && report.visitors === 0 && report.bots === 0 && report.not_found.length === 0;
}

/**
 * "/project/{id}/analytics": the site's visitors and views per day with the deploys marked,
 * the totals (bots apart, and the visitors of the last 5 minutes), and where visits came from,
 * on what, in which language, through which campaign, what they led to, and the addresses that
 * answered 404, each a click from a redirect. The range is in the URL (lib/range.ts).
 */
export function AnalyticsScreen({ project, slots }: { project: ProjectDetail; slots: AnalyticsSlots }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [search, setSearch] = useSearchParams();
  const day = todayUtc();
  const choice = readRange(search, day);
  const analytics = useAnalytics(project.id, choice.range);
  const report = analytics.data;
  const [redirecting, setRedirecting] = useState<string | null>(null);

  let body: ReactNode;
  if (report) {
    body = (
      <>
        {analytics.isError && (
          <Alert testId="analytics-refresh-error">
            {t('analytics.loadFailed', { message: errorMessage(analytics.error) })}
          </Alert>
        )}
        {!report.enabled && (
          <Alert kind="warning" testId="analytics-off">
            {t('analytics.off')}
          </Alert>
        )}
        <Totals projectId={project.id} day={day} report={report} />
        {isEmpty(report) ? (
          <div className="card empty analytics-empty" data-testid="analytics-empty">
            <h2>{t('analytics.empty.title')}</h2>
            <p className="muted">{t(report.enabled ? 'analytics.empty.body' : 'analytics.empty.off')}</p>
          </div>
        ) : (
          <>
            <section className="card analytics-card" aria-labelledby="analytics-chart-title">
              <h2 id="analytics-chart-title">{t('analytics.chart.title')}</h2>
              <VisitsChart days={report.days} deploys={report.deploys} range={choice.range} />
            </section>
            <ReportTables
              report={report}
              onRedirect={slots.redirectForm ? (path) => setRedirecting(path) : undefined}
            />
          </>
        )}
        {slots.setting && (
          <section className="card analytics-card" aria-labelledby="analytics-setting-title">
            <h2 id="analytics-setting-title">{t('analytics.setting.title')}</h2>
            {slots.setting(project, report.enabled)}
          </section>
        )}
      </>
    );
  } else if (analytics.isError) {
    body = (
      <Alert testId="analytics-error">
        {t('analytics.loadFailed', { message: errorMessage(analytics.error) })}
      </Alert>
    );
  } else {
    body = <PageLoader />;
  }

  return (
    <section className="page analytics" data-testid="analytics" aria-busy={analytics.isFetching}>
      <nav className="breadcrumbs" aria-label={t('analytics.breadcrumbs')}>
        <Link to={paths.home.build()}>{t('projects.title')}</Link> /{' '}
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <span>{t('analytics.title')}</span>
      </nav>
      <PageHeader title={t('analytics.title')} titleTestId="analytics-title">
        <span className="muted" data-testid="analytics-range">
          {t('analytics.range.shown', { from: fmt.day(choice.range.from), to: fmt.day(choice.range.to) })}
        </span>
      </PageHeader>
      <RangePicker
        // A new range (a preset, the back button) puts its days in the date fields.
        key={`${choice.range.from}|${choice.range.to}`}
        choice={choice}
        today={day}
        onPreset={(preset) => setSearch(presetSearch(preset))}
        onRange={(range) => setSearch(customSearch(range))}
      />
      {body}
      {redirecting !== null && slots.redirectForm?.(project.id, redirecting, () => setRedirecting(null))}
    </section>
  );
}
