import { useState } from 'react';
import {
  deviceById,
  storedDevice,
  storedScale,
  storeDevice,
  storeScale,
  type Device,
} from '@/features/pages/lib/preview-size';

/** How the canvas previews the page: desktop at a scale, or mobile on a device. */
export interface PreviewSize {
  mode: 'desktop' | 'mobile';
  scale: number;
  device: Device;
}

/** The preview size and its setters, as the top bar changes it. */
export interface PreviewSizeControl extends PreviewSize {
  setMode: (mode: 'desktop' | 'mobile') => void;
  setScale: (scale: number) => void;
  /** A device of `DEVICES`, by id. */
  setDevice: (id: string) => void;
}

/**
 * The editor's preview size: desktop or mobile (desktop first), and the desktop scale and mobile
 * device, both remembered in the browser for the next editor (`lib/preview-size.ts`).
 */
export function usePreviewSize(): PreviewSizeControl {
  const [mode, setMode] = useState<'desktop' | 'mobile'>('desktop');
  const [scale, setScale] = useState(storedScale);
  const [device, setDevice] = useState(storedDevice);
  return {
    mode,
    scale,
    device,
    setMode,
    setScale: (next) => {
      setScale(next);
      storeScale(next);
    },
    setDevice: (id) => {
      setDevice(deviceById(id));
      storeDevice(id);
    },
  };
}
