import { describe, expect, it } from 'vitest';
import type { BusinessBlock } from '@/lib/types';
import { fieldErrors } from '@/lib/validation';
import { blockFormValues, businessBlockFormSchema, isValidBlockImage } from './block-form';

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

const problems = (values: ReturnType<typeof blockFormValues>) => {
  const result = businessBlockFormSchema.safeParse(values);
  return result.success ? {} : fieldErrors(result.error);
};

describe('business block form', () => {
  it('starts from the block and sends trimmed values', () => {
    const values = { ...blockFormValues(block), name: ' Capa nova ', keywords: ' topo, capa ', order: '3' };
    expect(businessBlockFormSchema.parse(values)).toEqual({
      name: 'Capa nova',
      keywords: 'topo, capa',
      image: '',
      order: 3,
    });
  });

  it('needs a name and an order from 0 to 1000000, as the server does', () => {
    const values = blockFormValues(block);
    expect(problems({ ...values, name: '  ' })).toEqual({ name: 'validation.blockNameRequired' });
    for (const order of ['', '-1', '1.5', 'x', '1000001'])
      expect(problems({ ...values, order })).toEqual({ order: 'validation.orderInvalid' });
    expect(businessBlockFormSchema.parse({ ...values, order: '0' })).toMatchObject({ order: 0 });
  });

  it('takes an uploaded file or an http(s) address as the thumbnail (check_image)', () => {
    expect(isValidBlockImage('')).toBe(true);
    expect(isValidBlockImage('/files/1/capa.png')).toBe(true);
    expect(isValidBlockImage('https://cdn.example.com/a.png')).toBe(true);
    expect(isValidBlockImage('javascript:steal(document.cookie)')).toBe(false);
    expect(isValidBlockImage('https://x/\n')).toBe(false);
    expect(isValidBlockImage('https://x/\u0007')).toBe(false);
    expect(isValidBlockImage(`https://${'a'.repeat(2048)}`)).toBe(false);
    expect(problems({ ...blockFormValues(block), image: 'ftp://x' })).toEqual({
      image: 'validation.blockImageInvalid',
    });
  });
});
