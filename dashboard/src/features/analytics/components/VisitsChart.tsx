/**
 * Visitors and views per day, with a dashed vertical line at each deploy, drawn by uPlot.
 *
 * Why uPlot: a small (about 20 kB gzipped), fast canvas chart for time series, kept by its author
 * since 2019 (MIT), with no dependencies. It draws a year of days at once without the DOM nodes an
 * SVG chart would need per point, resizes to its box (a phone's 358 px as a desktop's card), and
 * its `draw` hook is all the deploy markers need. It comes with this screen's chunk only: the
 * route is lazy (src/app/router.tsx), so no other screen downloads it.
 *
 * The canvas says nothing to a screen reader, so the figure has a text description (the range,
 * the totals, the busiest day and the deploys), and uPlot's own box is hidden from assistive
 * technology; the tables below list the same report in words.
 */
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber, useFormat } from '@/lib/format';
import type { AnalyticsDay, AnalyticsDeploy } from '@/features/analytics/api/types';
import { chartSeries, chartSpan, deployMarks } from '@/features/analytics/lib/chart-data';
import type { DateRange } from '@/features/analytics/lib/range';

const HEIGHT = 240;

interface VisitsChartProps {
  days: readonly AnalyticsDay[];
  deploys: readonly AnalyticsDeploy[];
  range: DateRange;
}

/** The chart's colours from the design tokens (canvas can't read CSS variables itself). */
function tokenColours(element: HTMLElement) {
  const style = getComputedStyle(element);
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    visitors: token('--color-primary', '#4f46e5'),
    visitorsFill: token('--color-primary-a08', 'rgba(79, 70, 229, 0.08)'),
    views: token('--color-success', '#15803d'),
    deploy: token('--color-warning-text', '#92400e'),
    text: token('--color-text-muted', '#5d6577'),
    grid: token('--color-border', '#e2e5ee'),
  };
}

/** A dashed line from the plot's top to its bottom at each deploy. */
function drawDeploys(chart: uPlot, marks: readonly number[], colour: string) {
  const { ctx, bbox } = chart;
  ctx.save();
  ctx.strokeStyle = colour;
  // Two pixels at a whole x: the line covers whole pixels, in its own colour.
  ctx.lineWidth = 2 * uPlot.pxRatio;
  ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
  for (const at of marks) {
    const x = Math.round(chart.valToPos(at, 'x', true));
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
  }
  ctx.restore();
}

export function VisitsChart({ days, deploys, range }: VisitsChartProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { language } = fmt;
  const box = useRef<HTMLDivElement>(null);
  const descriptionId = useId();
  const series = useMemo(() => chartSeries(days, range), [days, range]);
  const marks = useMemo(() => deployMarks(deploys, range), [deploys, range]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const colours = tokenColours(element);
    const span = chartSpan(range);
    // Days, not times: a long range names months.
    const long = span[1] - span[0] > 120 * 86_400;
    const axisDate = new Intl.DateTimeFormat(language, {
      timeZone: 'UTC',
      ...(long ? { month: 'short', year: '2-digit' } : { day: '2-digit', month: '2-digit' }),
    });
    const legendDate = new Intl.DateTimeFormat(language, { timeZone: 'UTC', dateStyle: 'medium' });
    const count = (_: uPlot, value: number | null) => (value === null ? '—' : formatNumber(value, language));
    const axis = { stroke: colours.text, grid: { stroke: colours.grid, width: 1 }, ticks: { show: false } };
    const chart = new uPlot(
      {
        width: element.clientWidth || 640,
        height: HEIGHT,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: { x: { time: true, range: () => span } },
        series: [
          {
            label: t('analytics.chart.day'),
            value: (_, value) => (value === null ? '—' : legendDate.format(value * 1000)),
          },
          {
            label: t('analytics.chart.visitors'),
            stroke: colours.visitors,
            fill: colours.visitorsFill,
            width: 2,
            value: count,
          },
          { label: t('analytics.chart.views'), stroke: colours.views, width: 2, value: count },
        ],
        axes: [
          { ...axis, values: (_, splits) => splits.map((at) => axisDate.format(at * 1000)) },
          {
            ...axis,
            size: 48,
            values: (_, splits) => splits.map((value) => formatNumber(value, language)),
          },
        ],
        cursor: { drag: { x: false, y: false } },
        hooks: { draw: [(drawn) => drawDeploys(drawn, marks, colours.deploy)] },
      },
      [series.xs, series.visitors, series.views],
      element,
    );
    // The card's width, followed as the window (or a phone's orientation) changes.
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      chart.destroy();
    };
  }, [series, marks, range, language, t]);

  const busiest = days.reduce<AnalyticsDay | null>(
    (best, day) => (best === null || day.visitors > best.visitors ? day : best),
    null,
  );
  const description = [
    t('analytics.chart.description', {
      from: fmt.day(range.from),
      to: fmt.day(range.to),
      visitors: fmt.number(series.visitors.reduce((sum, value) => sum + value, 0)),
      views: fmt.number(series.views.reduce((sum, value) => sum + value, 0)),
    }),
    busiest && busiest.visitors > 0
      ? t('analytics.chart.busiest', { day: fmt.day(busiest.date), visitors: fmt.number(busiest.visitors) })
      : '',
    t('analytics.chart.deploys', { count: marks.length }),
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <figure className="analytics-chart" aria-describedby={descriptionId} data-testid="analytics-chart">
      <div ref={box} className="analytics-chart-canvas" aria-hidden="true" />
      {/* uPlot's legend names the lines (with the values under the pointer); this names the markers. */}
      {marks.length > 0 && (
        <figcaption className="analytics-chart-legend">
          <span className="analytics-key-deploy">{t('analytics.chart.deploy')}</span>
        </figcaption>
      )}
      <p id={descriptionId} className="sr-only" data-testid="analytics-chart-description">
        {description}
      </p>
    </figure>
  );
}
