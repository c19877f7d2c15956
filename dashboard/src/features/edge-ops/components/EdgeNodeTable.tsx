import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { durationParts, errorRate, secondsBetween } from '@/features/edge-ops/lib/figures';
import type { FigureFormatters } from '@/features/edge-ops/lib/formatters';
import type { EdgeNode } from '@/features/edge-ops/types';

/** "2 d 3 h", "1 h 5 min", "4 min 10 s", "45 s" (uptimes and ages). */
function formatDuration(t: TFunction, seconds: number): string {
  const parts = durationParts(seconds);
  return t(`edgeOps.duration.${parts.unit}`, parts);
}

interface EdgeNodeTableProps {
  /** Already sorted: stale nodes first. */
  nodes: readonly EdgeNode[];
  /** The server's clock of this answer. */
  now: string;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  fmt: FigureFormatters;
}

/** One row per node with its heartbeat figures; a stale node's row and badge are red. */
export function EdgeNodeTable({ nodes, now, selectedId, onSelect, fmt }: EdgeNodeTableProps) {
  const { t } = useTranslation();
  const none = t('edgeOps.none');
  return (
    <section className="card table-card">
      <table className="data-table edge-table" data-testid="edge-ops-table">
        <thead>
          <tr>
            <th>{t('edgeOps.node')}</th>
            <th>{t('edgeOps.region')}</th>
            <th>{t('edgeOps.version')}</th>
            <th>{t('edgeOps.health')}</th>
            <th>{t('edgeOps.uptime')}</th>
            <th className="numeric">{t('edgeOps.requests')}</th>
            <th className="numeric">{t('edgeOps.errors')}</th>
            <th className="numeric">{t('edgeOps.p99')}</th>
            <th className="numeric">{t('edgeOps.cacheHitRatio')}</th>
            <th className="numeric">{t('edgeOps.certificates')}</th>
            <th>{t('edgeOps.lastSeen')}</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => {
            const silentFor = secondsBetween(node.last_seen_at, now);
            const rate = errorRate(node);
            const selected = node.id === selectedId;
            const classes = [node.stale ? 'is-stale' : '', selected ? 'is-selected' : '']
              .filter(Boolean)
              .join(' ');
            return (
              <tr
                key={node.id}
                className={classes || undefined}
                data-testid={`edge-ops-row-${node.id}`}
                data-stale={node.stale}
              >
                <td>
                  <button
                    type="button"
                    className="link-button"
                    aria-pressed={selected}
                    onClick={() => onSelect(node.id)}
                    data-testid="edge-ops-select"
                  >
                    {node.id}
                  </button>
                </td>
                <td data-testid="edge-ops-region">{node.region}</td>
                <td data-testid="edge-ops-version">{node.version}</td>
                <td data-testid="edge-ops-health">
                  {node.stale ? (
                    <span className="badge badge-danger">
                      {t('edgeOps.stale', { seconds: fmt.count(silentFor) })}
                    </span>
                  ) : (
                    <span className="badge badge-success">{t('edgeOps.healthy')}</span>
                  )}
                </td>
                <td className="nowrap" data-testid="edge-ops-uptime">
                  {formatDuration(t, secondsBetween(node.started_at, now))}
                </td>
                <td className="numeric" data-testid="edge-ops-requests">
                  {fmt.count(node.requests)}
                </td>
                <td className="numeric nowrap" data-testid="edge-ops-errors">
                  {fmt.count(node.errors)}
                  {rate !== null && <span className="muted"> ({fmt.percent(rate, 2)})</span>}
                </td>
                <td className="numeric nowrap" data-testid="edge-ops-p99">
                  {node.p99_ms === null
                    ? none
                    : t('edgeOps.milliseconds', { value: fmt.decimal(node.p99_ms) })}
                </td>
                <td className="numeric" data-testid="edge-ops-cache">
                  {node.cache_hit_ratio === null ? none : fmt.percent(node.cache_hit_ratio, 1)}
                </td>
                <td className="numeric" data-testid="edge-ops-certificates">
                  {fmt.count(node.certificates)}
                </td>
                <td className="nowrap" data-testid="edge-ops-last-seen">
                  <time dateTime={node.last_seen_at} title={fmt.dateTime(node.last_seen_at)}>
                    {t('edgeOps.ago', { duration: formatDuration(t, silentFor) })}
                  </time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
