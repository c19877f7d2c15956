import { describe, expect, it } from 'vitest';
import type { PublishStep } from '@/features/publishing/types';
import { progressLines } from './deploy-progress';

describe('deploy progress', () => {
  it('keeps the latest step of each kind, in build order', () => {
    const steps: PublishStep[] = [
      { step: 'started', deploy_id: 4, pages: 3 },
      { step: 'fonts', faces: 2 },
      { step: 'page', index: 1, total: 3, name: 'Início' },
      { step: 'page', index: 2, total: 3, name: 'Contato' },
    ];
    expect(progressLines(steps)).toEqual([
      { step: 'started', deploy_id: 4, pages: 3 },
      { step: 'fonts', faces: 2 },
      { step: 'page', index: 2, total: 3, name: 'Contato' },
    ]);
    expect(progressLines([])).toEqual([]);
    expect(
      progressLines([{ step: 'live' }, { step: 'assets', files: 9, bytes: 10 }]).map((s) => s.step),
    ).toEqual(['assets', 'live']);
  });
});
