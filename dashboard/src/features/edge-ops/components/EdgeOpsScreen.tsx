import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useEdges } from '@/features/edge-ops/api/get-edges';
import { sortNodes } from '@/features/edge-ops/lib/figures';
import { figureFormatters } from '@/features/edge-ops/lib/formatters';
import { EdgeNodeDetail } from './EdgeNodeDetail';
import { EdgeNodeTable } from './EdgeNodeTable';
import { ActionButton } from '@/components/ActionButton';

/**
 * The platform operators' ops screen (/erp/edges): every edge node's last heartbeat, stale ones
 * first and in red, and the selected node's traffic and recent errors. Polls every 5 s; between
 * answers the previous one stays on screen (no loader, no spinner), and a failed poll is reported
 * above the last good figures instead of replacing them.
 */
export function EdgeOpsScreen() {
  const { t, i18n } = useTranslation();
  const edges = useEdges();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const fmt = useMemo(() => figureFormatters(i18n.language), [i18n.language]);
  const nodes = useMemo(() => sortNodes(edges.data?.nodes ?? []), [edges.data]);
  // The chosen node while it is listed, else the first (a stale one, if any).
  const selected = nodes.find((node) => node.id === chosenId) ?? nodes[0];

  const header = (
    <header className="page-header">
      <h1>{t('edgeOps.title')}</h1>
      <div className="button-row toolbar-item">
        {edges.data && (
          <span data-testid="edge-ops-updated">
            {t('edgeOps.updatedAt', { time: fmt.time(edges.data.now) })}
          </span>
        )}
        <ActionButton onClick={() => void edges.refetch()} testId="edge-ops-refresh">
          {t('edgeOps.refresh')}
        </ActionButton>
      </div>
    </header>
  );

  if (edges.isPending) return <PageLoader />;
  if (edges.data === undefined) {
    return (
      <div className="page" data-testid="edge-ops">
        {header}
        <Alert testId="edge-ops-error">
          {t('edgeOps.loadFailed', { message: errorMessage(edges.error) })}
        </Alert>
      </div>
    );
  }

  const staleCount = nodes.filter((node) => node.stale).length;
  return (
    <div className="page" data-testid="edge-ops">
      {header}
      {edges.isError && (
        <Alert testId="edge-ops-refresh-error">
          {t('edgeOps.refreshFailed', { message: errorMessage(edges.error) })}
        </Alert>
      )}
      {nodes.length === 0 ? (
        <p className="card empty muted" data-testid="edge-ops-empty">
          {t('edgeOps.empty')}
        </p>
      ) : (
        <>
          <p className="muted" data-testid="edge-ops-summary">
            {t('edgeOps.summary', { count: nodes.length })}
          </p>
          {staleCount > 0 && (
            <Alert testId="edge-ops-stale-summary">
              {t('edgeOps.staleSummary', {
                count: staleCount,
                seconds: fmt.count(edges.data.stale_after_seconds),
              })}
            </Alert>
          )}
          <EdgeNodeTable
            nodes={nodes}
            now={edges.data.now}
            selectedId={selected?.id}
            onSelect={setChosenId}
            fmt={fmt}
          />
          {selected && <EdgeNodeDetail node={selected} fmt={fmt} />}
        </>
      )}
    </div>
  );
}
