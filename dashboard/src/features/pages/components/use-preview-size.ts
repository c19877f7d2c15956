import { useState } from 'react';
import {
  deviceById,
  storedDevice,
  storedZoom,
  storeDevice,
  storeZoom,
  fitScale,
  zoomScale,
  type Device,
  type Zoom,
} from '@/features/pages/lib/preview-size';

/** How the canvas previews the page: desktop at a scale, or mobile on a device. */
export interface PreviewSize {
  mode: 'desktop' | 'mobile';
  /** The desktop zoom chosen: fit to the stage, or a preset. */
  zoom: Zoom;
  /** The scale the desktop frame shows at: the zoom's, fitted to the stage's measured width. */
  scale: number;
  /** The scale "fit" shows at, whatever the zoom (the zoom menu says it). */
  fit: number;
  device: Device;
}

/** The preview size and its setters, as the top bar changes it. */
export interface PreviewSizeControl extends PreviewSize {
  setMode: (mode: 'desktop' | 'mobile') => void;
  setZoom: (zoom: Zoom) => void;
  /** A device of `DEVICES`, by id. */
  setDevice: (id: string) => void;
  /** The width the stage has for the frame (its content box), as the canvas measures it. */
  setAvailableWidth: (width: number) => void;
}

/**
 * The editor's preview size: desktop or mobile (desktop first), and the desktop zoom (fit to the
 * stage's width unless a preset was chosen) and mobile device, both remembered in the browser
 * for the next editor (`lib/preview-size.ts`).
 */
export function usePreviewSize(): PreviewSizeControl {
  const [mode, setMode] = useState<'desktop' | 'mobile'>('desktop');
  const [zoom, setZoom] = useState(storedZoom);
  const [available, setAvailableWidth] = useState(0);
  const [device, setDevice] = useState(storedDevice);
  return {
    mode,
    zoom,
    scale: zoomScale(zoom, available),
    fit: fitScale(available),
    device,
    setMode,
    setZoom: (next) => {
      setZoom(next);
      storeZoom(next);
    },
    setDevice: (id) => {
      setDevice(deviceById(id));
      storeDevice(id);
    },
    setAvailableWidth,
  };
}
