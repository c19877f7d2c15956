import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import ptBR from '@/locales/pt-BR.json';
import { DEPLOY_EXPECTED_MS, DEPLOY_MESSAGES, DEPLOY_STEP_MS, deployMessageAt } from './deploy-progress';

describe('deploy progress', () => {
  it('spreads four messages evenly over the expected 10 seconds', () => {
    expect(DEPLOY_MESSAGES).toHaveLength(4);
    expect(DEPLOY_EXPECTED_MS).toBe(10_000);
    expect(DEPLOY_STEP_MS).toBe(2_500);
  });

  it('changes message at 0, 2.5, 5 and 7.5 s and keeps the last one afterwards', () => {
    expect(deployMessageAt(0)).toBe('connecting');
    expect(deployMessageAt(2_499)).toBe('connecting');
    expect(deployMessageAt(2_500)).toBe('converting');
    expect(deployMessageAt(5_000)).toBe('uploading');
    expect(deployMessageAt(7_500)).toBe('optimizing');
    expect(deployMessageAt(60_000)).toBe('optimizing');
  });

  it('has every message in both catalogues', () => {
    for (const message of DEPLOY_MESSAGES) {
      expect(ptBR.publishing.progress[message]).toBeTruthy();
      expect(en.publishing.progress[message]).toBeTruthy();
    }
    expect(en.publishing.progress.connecting).toBe('Connecting to the deploy server…');
  });
});
