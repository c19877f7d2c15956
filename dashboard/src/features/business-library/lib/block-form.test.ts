import { describe, expect, it } from 'vitest';
import type { BusinessBlock } from '@/lib/business-blocks/types';
import { blockFormValues, blockPayload } from './block-form';

const block: BusinessBlock = {
  id: 4,
  name: 'Capa',
  image: '',
  keywords: 'topo',
  template: '<p></p>',
  css: '',
  js: '',
  order: 99,
  updated_at: '',
};

describe('business block form', () => {
  it('starts from the block and sends trimmed values', () => {
    const values = { ...blockFormValues(block), name: ' Capa nova ', keywords: ' topo, capa ', order: '3' };
    expect(blockPayload(values)).toEqual({
      payload: { name: 'Capa nova', keywords: 'topo, capa', image: '', order: 3 },
    });
  });

  it('needs a name and an order from 0 to 1000000, as the server does', () => {
    const values = blockFormValues(block);
    expect(blockPayload({ ...values, name: '  ' })).toEqual({ error: 'nameRequired' });
    for (const order of ['', '-1', '1.5', 'x', '1000001'])
      expect(blockPayload({ ...values, order })).toEqual({ error: 'orderInvalid' });
    expect(blockPayload({ ...values, order: '0' })).toMatchObject({ payload: { order: 0 } });
  });
});
