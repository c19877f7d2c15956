import { useTranslation } from 'react-i18next';
import type { FigureFormatters } from '@/features/edge-ops/lib/formatters';
import type { EdgeNode } from '@/features/edge-ops/types';
import { RequestsChart } from './RequestsChart';
import { ListTable } from '@/components/ListTable';

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
      <ListTable
        isEmpty={errors.length === 0}
        empty={{
          text: t('edgeOps.detail.noRecentErrors'),
          testId: 'edge-ops-no-recent-errors',
          className: 'muted',
        }}
        className="table-card"
        testId="edge-ops-recent-errors"
        headers={[
          t('edgeOps.detail.at'),
          t('edgeOps.detail.status'),
          t('edgeOps.detail.host'),
          t('edgeOps.detail.path'),
        ]}
      >
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
      </ListTable>
    </section>
  );
}
