/**
 * Preview sizes (spec §2, §9): the desktop zoom on a 1280 px reference width, fit to the
 * stage's width by default or one of a few presets, and the mobile devices; the choices are
 * remembered in localStorage.
 */
import { readLocal, writeLocal } from '@/lib/storage';

export const DESKTOP_WIDTH = 1280;
/** The desktop zoom: fit to the stage's width, or a fixed scale. */
export type Zoom = 'fit' | number;
/** The zoom menu's presets, "fit" first (the default). */
export const ZOOMS: readonly Zoom[] = ['fit', 0.5, 0.75, 1];
export const DEFAULT_ZOOM: Zoom = 'fit';
/** Below this a fitted page is too small to edit; the stage scrolls instead. */
export const MIN_FIT_SCALE = 0.25;

/**
 * The scale at which the desktop reference width fits `available` pixels: never above 100 %,
 * never below `MIN_FIT_SCALE`, rounded down to a whole percent so the frame never overflows by
 * a fraction of a pixel. An unknown width (0, before the stage is measured) fits at 100 %.
 */
export function fitScale(available: number, reference: number = DESKTOP_WIDTH): number {
  if (!(available > 0) || !(reference > 0)) return 1;
  const scale = Math.floor((available / reference) * 100) / 100;
  return Math.min(1, Math.max(MIN_FIT_SCALE, scale));
}

/** The scale a zoom shows at, the stage being `available` pixels wide. */
export function zoomScale(zoom: Zoom, available: number): number {
  return zoom === 'fit' ? fitScale(available) : zoom;
}

export interface Device {
  id: string;
  name: string;
  width: number;
  height: number;
}

export const DEVICES: readonly Device[] = [
  { id: 'iphone-12-pro', name: 'iPhone 12 Pro', width: 390, height: 844 },
  { id: 'iphone-12-pro-max', name: 'iPhone 12 Pro Max', width: 430, height: 932 },
  { id: 'iphone-x', name: 'iPhone X/XS/11 Pro', width: 375, height: 812 },
  { id: 'moto-g', name: 'Moto G/Galaxy', width: 412, height: 915 },
  { id: 'android', name: 'Android default', width: 360, height: 780 },
];
export const DEFAULT_DEVICE = 'iphone-12-pro';

export const SCALE_KEY = 'vitrine.editor.scale';
export const DEVICE_KEY = 'vitrine.editor.device';

/** The zoom last chosen; anything else stored (an old preset such as 0.7) means "fit". */
export function storedZoom(): Zoom {
  const stored = readLocal(SCALE_KEY);
  return ZOOMS.find((zoom) => String(zoom) === stored) ?? DEFAULT_ZOOM;
}

export function storeZoom(zoom: Zoom): void {
  writeLocal(SCALE_KEY, String(zoom));
}

export function deviceById(id: string | null): Device {
  return DEVICES.find((device) => device.id === id) ?? (DEVICES[0] as Device);
}

export function storedDevice(): Device {
  return deviceById(readLocal(DEVICE_KEY));
}

export function storeDevice(id: string): void {
  writeLocal(DEVICE_KEY, id);
}
