import { useTranslation } from 'react-i18next';
import type { FigureFormatters } from '@/features/edge-ops/lib/formatters';
import type { EdgeNode } from '@/features/edge-ops/types';
import { RequestsChart } from './RequestsChart';

interface EdgeNodeDetailProps {
  node: EdgeNode;
  fmt: FigureFormatters;
}

/** The selected node: its traffic per heartbeat and the errors it answered lately, newest first. */
export function EdgeNodeDetail({ node, fmt }: EdgeNodeDetailProps) {
  const { t } = useTranslation();
  const errors = [...node.recent_errors].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return (
    <section
      className="card edge-detail"
      data-testid="edge-ops-detail"
      aria-labelledby="edge-ops-detail-title"
    >
      <h2 id="edge-ops-detail-title">{t('edgeOps.detail.title', { id: node.id })}</h2>
      <h3>{t('edgeOps.chart.title')}</h3>
      <RequestsChart points={node.history} fmt={fmt} />
      <h3>{t('edgeOps.detail.recentErrors')}</h3>
      {errors.length === 0 ? (
        <p className="muted" data-testid="edge-ops-no-recent-errors">
          {t('edgeOps.detail.noRecentErrors')}
        </p>
      ) : (
        <div className="table-card">
          <table className="data-table" data-testid="edge-ops-recent-errors">
            <thead>
              <tr>
                <th>{t('edgeOps.detail.at')}</th>
                <th>{t('edgeOps.detail.status')}</th>
                <th>{t('edgeOps.detail.host')}</th>
                <th>{t('edgeOps.detail.path')}</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((error, index) => (
                <tr key={`${error.at}-${index}`} data-testid="edge-ops-recent-error">
                  <td className="nowrap">
                    <time dateTime={error.at}>{fmt.dateTime(error.at)}</time>
                  </td>
                  <td>{error.status}</td>
                  <td>{error.host}</td>
                  <td className="edge-path">
                    <code>{error.path}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
