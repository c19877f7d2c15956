import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '@/components/ActionButton';
import { ListTable } from '@/components/ListTable';
import { useFormat } from '@/lib/format';
import type { AnalyticsReport } from '@/features/analytics/api/types';

interface ReportCardProps {
  title: string;
  testId: string;
  children: ReactNode;
}

/** One part of the report in a card: its title, then its table (which scrolls inside the card). */
function ReportCard({ title, testId, children }: ReportCardProps) {
  const titleId = `${testId}-title`;
  return (
    <section
      className="card analytics-card analytics-table-card"
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </section>
  );
}

interface ReportTableProps {
  testId: string;
  headers: string[];
  /** The rows: labels (a path, a source) first, then `figures` figures. */
  rows: { key: string; cells: ReactNode[] }[];
  /** How many of the last cells are figures (1 unless said). */
  figures?: number;
  /** A column a phone leaves out (its index), so the labels keep a readable width. */
  hideOnPhone?: number;
}

function cellClass(index: number, count: number, figures: number, hideOnPhone?: number): string {
  const kind = index < count - figures ? 'wrap-anywhere' : 'analytics-figure';
  return index === hideOnPhone ? `${kind} hide-on-phone` : kind;
}

/**
 * A short ranked list as a table that fits its card down to a phone: labels and headings wrap
 * anywhere, figures stay on one line at the end.
 */
function ReportTable({ testId, headers, rows, figures = 1, hideOnPhone }: ReportTableProps) {
  const { t } = useTranslation();
  return (
    <ListTable
      isEmpty={rows.length === 0}
      empty={{ text: t('analytics.noData'), testId: `${testId}-empty`, className: 'muted analytics-none' }}
      className="table-scroll"
      testId={testId}
      headers={headers}
      headerClassNames={headers.map((_, index) => {
        const kind = index < headers.length - figures ? undefined : 'analytics-figure';
        return index === hideOnPhone ? `${kind ?? ''} hide-on-phone`.trim() : kind;
      })}
    >
      {rows.map((row) => (
        <tr key={row.key} data-testid={`${testId}-row`}>
          {row.cells.map((cell, index) => (
            <td key={index} className={cellClass(index, row.cells.length, figures, hideOnPhone)}>
              {cell}
            </td>
          ))}
        </tr>
      ))}
    </ListTable>
  );
}

/** A language tag with its name in the interface's language ("pt-BR" → "português (Brasil)"). */
function languageName(tag: string, language: string): string | null {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language', fallback: 'none' }).of(tag);
    return name && name !== tag ? name : null;
  } catch {
    // Not a well-formed tag: shown as the server sent it.
    return null;
  }
}

/** One line of a part counted in visitors (sources, devices, languages, campaigns). */
interface Breakdown {
  key: string;
  label: ReactNode;
  visitors: number;
}

interface ReportTablesProps {
  report: AnalyticsReport;
  /** Opens the redirect form for a missing path; none: no "create redirect" action. */
  onRedirect?: (path: string) => void;
}

/**
 * The report's breakdowns: top pages, sources, devices, languages, campaigns, conversions, and
 * the paths that answered 404, each with "Criar redirecionamento".
 */
export function ReportTables({ report, onRedirect }: ReportTablesProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const visitors = t('analytics.columns.visitors');
  const views = t('analytics.columns.views');
  // The parts counted in visitors: a label each, and how many came that way.
  const breakdowns: { part: string; title: string; header: string; rows: Breakdown[] }[] = [
    {
      part: 'referrers',
      title: t('analytics.referrers.title'),
      header: t('analytics.columns.source'),
      rows: report.referrers.map(({ source, visitors }) => ({
        key: source,
        label: source === 'direct' ? t('analytics.referrers.direct') : source,
        visitors,
      })),
    },
    {
      part: 'devices',
      title: t('analytics.devices.title'),
      header: t('analytics.columns.device'),
      rows: report.devices.map(({ device, visitors }) => ({
        key: device,
        label: t(`analytics.devices.kinds.${device}`),
        visitors,
      })),
    },
    {
      part: 'languages',
      title: t('analytics.languages.title'),
      header: t('analytics.columns.language'),
      rows: report.languages.map(({ language, visitors }) => {
        const name = languageName(language, fmt.language);
        return {
          key: language,
          label: name ? (
            <>
              {name} <span className="muted">({language})</span>
            </>
          ) : (
            language
          ),
          visitors,
        };
      }),
    },
    {
      part: 'campaigns',
      title: t('analytics.campaigns.title'),
      header: t('analytics.columns.campaign'),
      rows: report.campaigns.map(({ source, medium, campaign, visitors }) => ({
        key: `${campaign}|${source}|${medium}`,
        // Its source and medium under its name: two columns fit a phone, four would not.
        label: (
          <>
            {campaign}
            <span className="analytics-detail">{t('analytics.campaigns.detail', { source, medium })}</span>
          </>
        ),
        visitors,
      })),
    },
  ];
  const conversions = [
    ['forms', report.conversions.forms],
    ['whatsapp', report.conversions.whatsapp],
    ['phone', report.conversions.phone],
    ['email', report.conversions.email],
  ] as const;

  return (
    <div className="analytics-grid">
      <ReportCard title={t('analytics.pages.title')} testId="analytics-pages">
        <ReportTable
          testId="analytics-pages-table"
          headers={[t('analytics.columns.page'), views, visitors]}
          figures={2}
          hideOnPhone={2}
          rows={report.pages.map((page) => ({
            key: page.path,
            cells: [<code key="path">{page.path}</code>, fmt.number(page.views), fmt.number(page.visitors)],
          }))}
        />
      </ReportCard>
      {breakdowns.map(({ part, title, header, rows }) => (
        <ReportCard key={part} title={title} testId={`analytics-${part}`}>
          <ReportTable
            testId={`analytics-${part}-table`}
            headers={[header, visitors]}
            rows={rows.map((row) => ({ key: row.key, cells: [row.label, fmt.number(row.visitors)] }))}
          />
        </ReportCard>
      ))}
      <ReportCard title={t('analytics.conversions.title')} testId="analytics-conversions">
        <dl className="analytics-conversions">
          {conversions.map(([kind, count]) => (
            <div key={kind}>
              <dt>{t(`analytics.conversions.kinds.${kind}`)}</dt>
              <dd data-testid={`analytics-conversions-${kind}`}>{fmt.number(count)}</dd>
            </div>
          ))}
        </dl>
      </ReportCard>
      <ReportCard title={t('analytics.notFound.title')} testId="analytics-not-found">
        <p className="muted small">{t('analytics.notFound.help')}</p>
        <ReportTable
          testId="analytics-not-found-table"
          headers={[t('analytics.columns.path'), views]}
          rows={report.not_found.map((missing) => ({
            key: missing.path,
            // The action under its path: a column of its own would not leave a phone room for both.
            cells: [
              <div key="path" className="analytics-missing">
                <code>{missing.path}</code>
                {onRedirect && (
                  <ActionButton
                    size="small"
                    onClick={() => onRedirect(missing.path)}
                    aria-label={t('analytics.notFound.redirectPath', { path: missing.path })}
                    testId="analytics-create-redirect"
                  >
                    {t('analytics.notFound.redirect')}
                  </ActionButton>
                )}
              </div>,
              fmt.number(missing.views),
            ],
          }))}
        />
      </ReportCard>
    </div>
  );
}
