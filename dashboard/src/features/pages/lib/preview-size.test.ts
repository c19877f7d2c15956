// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { deviceById, DEVICES, storedDevice, storedScale, storeDevice, storeScale } from './preview-size';

beforeEach(() => window.localStorage.clear());

describe('preview size', () => {
  it('defaults to 70 % and iPhone 12 Pro', () => {
    expect(storedScale()).toBe(0.7);
    expect(storedDevice()).toEqual({ id: 'iphone-12-pro', name: 'iPhone 12 Pro', width: 390, height: 844 });
  });

  it('remembers a valid scale and device, ignores anything else', () => {
    storeScale(0.9);
    storeDevice('moto-g');
    expect(storedScale()).toBe(0.9);
    expect(storedDevice().width).toBe(412);
    storeScale(0.65);
    expect(storedScale()).toBe(0.7);
    expect(deviceById('nokia').id).toBe('iphone-12-pro');
  });

  it('lists the spec devices exactly', () => {
    expect(DEVICES.map((d) => `${d.name} ${d.width}x${d.height}`)).toEqual([
      'iPhone 12 Pro 390x844',
      'iPhone 12 Pro Max 430x932',
      'iPhone X/XS/11 Pro 375x812',
      'Moto G/Galaxy 412x915',
      'Android default 360x780',
    ]);
  });
});
