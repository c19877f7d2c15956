// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import {
  deviceById,
  DEVICES,
  fitScale,
  MIN_FIT_SCALE,
  storedDevice,
  storedZoom,
  storeDevice,
  storeZoom,
  zoomScale,
  ZOOMS,
} from './preview-size';

beforeEach(() => window.localStorage.clear());

describe('fit to width', () => {
  it('fits the 1280 px page into the stage of a 1280 and a 1440 px laptop', () => {
    // The stage's content width beside the editor's panels (230 + 300 px, 16 px padding each side).
    expect(fitScale(1280 - 530 - 32)).toBe(0.56);
    expect(fitScale(1440 - 530 - 32)).toBe(0.68);
    for (const available of [718, 878, 640, 1001, 1279]) {
      expect(fitScale(available) * 1280).toBeLessThanOrEqual(available);
    }
  });

  it('rounds down to a whole percent so the frame is never a fraction wider than the stage', () => {
    expect(fitScale(1279)).toBe(0.99);
    expect(fitScale(767.9)).toBe(0.59);
    expect(fitScale(640, 1280)).toBe(0.5);
  });

  it('never zooms past 100 % nor below the minimum, and fits an unmeasured stage at 100 %', () => {
    expect(fitScale(2560)).toBe(1);
    expect(fitScale(100)).toBe(MIN_FIT_SCALE);
    expect(fitScale(0)).toBe(1);
    expect(fitScale(Number.NaN)).toBe(1);
  });

  it('shows a preset at its own scale whatever the stage, and "fit" at the fitted one', () => {
    expect(zoomScale('fit', 718)).toBe(0.56);
    expect(zoomScale(0.75, 718)).toBe(0.75);
    expect(zoomScale(1, 300)).toBe(1);
  });
});

describe('preview size', () => {
  it('defaults to fit and iPhone 12 Pro, with 50, 75 and 100 % as presets', () => {
    expect(storedZoom()).toBe('fit');
    expect(ZOOMS).toEqual(['fit', 0.5, 0.75, 1]);
    expect(storedDevice()).toEqual({ id: 'iphone-12-pro', name: 'iPhone 12 Pro', width: 390, height: 844 });
  });

  it('remembers a valid zoom and device, ignores anything else (an old 70 % becomes fit)', () => {
    storeZoom(0.75);
    storeDevice('moto-g');
    expect(storedZoom()).toBe(0.75);
    expect(storedDevice().width).toBe(412);
    storeZoom('fit');
    expect(storedZoom()).toBe('fit');
    window.localStorage.setItem('vitrine.editor.scale', '0.7');
    expect(storedZoom()).toBe('fit');
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
