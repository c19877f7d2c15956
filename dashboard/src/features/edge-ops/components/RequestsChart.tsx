import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { axisTop } from '@/features/edge-ops/lib/figures';
import type { FigureFormatters } from '@/features/edge-ops/lib/formatters';
import type { EdgeHistoryPoint } from '@/features/edge-ops/types';

const WIDTH = 640;
const HEIGHT = 200;
const MARGIN = { top: 12, right: 12, bottom: 28, left: 56 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

interface RequestsChartProps {
  points: readonly EdgeHistoryPoint[];
  fmt: FigureFormatters;
}

/** x positions by time; by index when the times are unusable (all equal or not dates). */
function xPositions(points: readonly EdgeHistoryPoint[]): number[] {
  const times = points.map((point) => Date.parse(point.at));
  const first = times[0] ?? NaN;
  const last = times[times.length - 1] ?? NaN;
  const span = last - first;
  if (points.length === 1) return [MARGIN.left + PLOT_W / 2];
  if (!Number.isFinite(span) || span <= 0 || times.some((time) => Number.isNaN(time))) {
    return points.map((_, index) => MARGIN.left + (index / (points.length - 1)) * PLOT_W);
  }
  return times.map((time) => MARGIN.left + ((time - first) / span) * PLOT_W);
}

/**
 * Requests (and errors) per heartbeat interval, as a small SVG line chart.
 *
 * Written here rather than taken from a charting library: it is two polylines over at most 120
 * points. The small well-kept libraries (uPlot, Chart.js) would each add tens of kilobytes to
 * this chunk for axes and interactions we do not need, and hand-made SVG is accessible on our
 * terms: the figure is one `role="img"` whose title and description state the figures (points,
 * span, peak and latest values), each interval has a hover title, and it renders in jsdom, so
 * the unit tests see what the operator sees.
 */
export function RequestsChart({ points, fmt }: RequestsChartProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const descId = useId();
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) {
    return (
      <p className="muted" data-testid="edge-ops-chart-empty">
        {t('edgeOps.chart.empty')}
      </p>
    );
  }

  const maxRequests = Math.max(...points.map((point) => point.requests));
  const maxErrors = Math.max(...points.map((point) => point.errors));
  const top = axisTop(Math.max(maxRequests, maxErrors));
  const xs = xPositions(points);
  const y = (value: number) => MARGIN.top + PLOT_H - (value / top) * PLOT_H;
  const line = (value: (point: EdgeHistoryPoint) => number) =>
    points.map((point, index) => `${(xs[index] ?? 0).toFixed(1)},${y(value(point)).toFixed(1)}`).join(' ');
  const lastX = xs[xs.length - 1] ?? 0;
  const slot = PLOT_W / points.length;

  return (
    <figure className="edge-chart" data-testid="edge-ops-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} aria-describedby={descId}>
        <title id={titleId}>{t('edgeOps.chart.title')}</title>
        <desc id={descId}>
          {t('edgeOps.chart.description', {
            count: points.length,
            from: fmt.time(first.at),
            to: fmt.time(last.at),
            maxRequests: fmt.count(maxRequests),
            maxErrors: fmt.count(maxErrors),
            lastRequests: fmt.count(last.requests),
            lastErrors: fmt.count(last.errors),
          })}
        </desc>
        <g className="edge-chart-axis" aria-hidden="true">
          {[0, top / 2, top].map((value) => (
            <g key={value}>
              <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(value)} y2={y(value)} />
              <text x={MARGIN.left - 6} y={y(value)} textAnchor="end" dominantBaseline="middle">
                {fmt.count(value)}
              </text>
            </g>
          ))}
          <text x={MARGIN.left} y={HEIGHT - 8} textAnchor="start">
            {fmt.time(first.at)}
          </text>
          <text x={WIDTH - MARGIN.right} y={HEIGHT - 8} textAnchor="end">
            {fmt.time(last.at)}
          </text>
        </g>
        <polyline
          className="edge-chart-requests"
          points={line((point) => point.requests)}
          data-testid="edge-ops-chart-requests"
        />
        <polyline
          className="edge-chart-errors"
          points={line((point) => point.errors)}
          data-testid="edge-ops-chart-errors"
        />
        <circle className="edge-chart-requests-dot" cx={lastX} cy={y(last.requests)} r={3} />
        <circle className="edge-chart-errors-dot" cx={lastX} cy={y(last.errors)} r={3} />
        {points.map((point, index) => (
          <rect
            key={`${point.at}-${index}`}
            className="edge-chart-slot"
            x={(xs[index] ?? 0) - slot / 2}
            y={MARGIN.top}
            width={slot}
            height={PLOT_H}
          >
            <title>
              {t('edgeOps.chart.point', {
                time: fmt.time(point.at),
                requests: fmt.count(point.requests),
                errors: fmt.count(point.errors),
              })}
            </title>
          </rect>
        ))}
      </svg>
      <figcaption className="edge-chart-legend">
        <span className="edge-chart-key edge-chart-key-requests">{t('edgeOps.chart.requests')}</span>
        <span className="edge-chart-key edge-chart-key-errors">{t('edgeOps.chart.errors')}</span>
      </figcaption>
    </figure>
  );
}
