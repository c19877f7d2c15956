/**
 * Preview sizes (spec §2, §9): desktop scales on a 1280 px reference width, and the mobile
 * devices; the choices are remembered in localStorage.
 */
import { readLocal, writeLocal } from '@/lib/storage';

export const DESKTOP_WIDTH = 1280;
export const SCALES = [0.5, 0.7, 0.8, 0.9, 1] as const;
export const DEFAULT_SCALE = 0.7;

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

export function storedScale(): number {
  const value = Number(readLocal(SCALE_KEY));
  return (SCALES as readonly number[]).includes(value) ? value : DEFAULT_SCALE;
}

export function storeScale(scale: number): void {
  writeLocal(SCALE_KEY, String(scale));
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
