/**
 * The tablet as a kiosk (issue 29): an installable app (its web manifest, and a service
 * worker that keeps the kiosk's own files so `/kiosk` opens without the network), a screen
 * kept awake (Screen Wake Lock, asked again whenever the page comes back into view) and full
 * screen asked at the first touch (a browser allows it only then; a refusal changes nothing).
 */
import { useEffect } from 'react';

export const KIOSK_SCOPE = '/kiosk';
export const KIOSK_SW = '/kiosk-sw.js';
export const KIOSK_MANIFEST = '/kiosk.webmanifest';

function addHeadLink(rel: string, href: string): () => void {
  const link = document.createElement('link');
  link.rel = rel;
  link.href = href;
  document.head.appendChild(link);
  return () => link.remove();
}

/** The manifest for this page only (the staff app is not an installable kiosk). */
export function registerKioskApp(): () => void {
  const removeManifest = addHeadLink('manifest', KIOSK_MANIFEST);
  const removeIcon = addHeadLink('apple-touch-icon', '/kiosk-icon-192.png');
  // Once the page has loaded: the worker's copies of the kiosk's files do not compete with it.
  const register = () => {
    navigator.serviceWorker.register(KIOSK_SW, { scope: KIOSK_SCOPE }).catch(() => undefined);
  };
  const worker = 'serviceWorker' in navigator && import.meta.env.PROD;
  if (worker && document.readyState === 'complete') register();
  else if (worker) window.addEventListener('load', register, { once: true });
  return () => {
    window.removeEventListener('load', register);
    removeManifest();
    removeIcon();
  };
}

interface WakeLockSentinelLike {
  released: boolean;
  release(): Promise<void>;
}
interface WakeLockLike {
  request(type: 'screen'): Promise<WakeLockSentinelLike>;
}

export function useScreenAwake(): void {
  useEffect(() => {
    const wakeLock = (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock;
    let sentinel: WakeLockSentinelLike | null = null;
    let stopped = false;
    const acquire = () => {
      if (!wakeLock || document.visibilityState !== 'visible') return;
      if (sentinel && !sentinel.released) return;
      wakeLock.request('screen').then(
        (held) => {
          if (stopped) void held.release();
          else sentinel = held;
        },
        () => undefined,
      );
    };
    const fullScreen = () => {
      const root = document.documentElement;
      if (!document.fullscreenElement && root.requestFullscreen) {
        root.requestFullscreen().catch(() => undefined);
      }
      // Asking for the screen lock needs a user's gesture on some browsers too.
      acquire();
    };
    acquire();
    document.addEventListener('visibilitychange', acquire);
    document.addEventListener('pointerdown', fullScreen, { once: true, capture: true });
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', acquire);
      document.removeEventListener('pointerdown', fullScreen, { capture: true });
      void sentinel?.release().catch(() => undefined);
    };
  }, []);
}
