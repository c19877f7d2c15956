// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '@/lib/i18n';
import { figureFormatters } from '@/features/edge-ops/lib/formatters';
import { RequestsChart } from './RequestsChart';

describe('RequestsChart', () => {
  it('describes a single interval in the singular, and a quiet axis as 0, 1, 2', () => {
    render(
      <RequestsChart
        points={[{ at: '2026-11-24T12:00:00Z', requests: 1, errors: 1 }]}
        fmt={figureFormatters('pt-BR')}
      />,
    );
    const chart = screen.getByRole('img', { name: 'Requisições por intervalo' });
    const description = chart.querySelector('desc')?.textContent ?? '';
    expect(description).toMatch(/^1 intervalo, às .+; requisições: 1, erros: 1\.$/);
    const axis = [...chart.querySelectorAll('.edge-chart-axis text')].map((text) => text.textContent);
    expect(axis.slice(0, 3)).toEqual(['0', '1', '2']);
  });
});
