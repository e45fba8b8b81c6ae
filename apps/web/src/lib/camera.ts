/**
 * The device's camera shown in a <video>: the desk's scanner (the rear camera), the kiosk's
 * scanner and its walk-in's photo (the front one). Plain DOM: the kiosk's small bundle
 * takes it as the staff pages do.
 */
import type { CSSProperties } from 'react';

export interface CameraRequest {
  facing: 'user' | 'environment';
  width: number;
  height: number;
}

/**
 * Asks for the camera, then plays it in the video `videoOf()` gives once it answers.
 * Answers the stream and that video (none when the screen has none by then), or null when
 * `stopped()` came true meanwhile (while asked, or while starting to play): that stream is
 * stopped there, the camera not left on.
 * Throws when the camera is refused or absent.
 */
export async function playCamera(
  request: CameraRequest,
  videoOf: () => HTMLVideoElement | null,
  stopped: () => boolean,
): Promise<{ stream: MediaStream; video: HTMLVideoElement | null } | null> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    video: {
      facingMode: { ideal: request.facing },
      width: { ideal: request.width },
      height: { ideal: request.height },
    },
  });
  if (!stopped()) {
    const video = videoOf();
    if (video) {
      video.srcObject = stream;
      await video.play().catch(() => undefined);
    }
    if (!stopped()) return { stream, video };
  }
  stopCamera(stream);
  return null;
}

/** Turns the camera off (its light with it). */
export function stopCamera(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}

/**
 * The video's look: the frame's width, 4:3, filled. `mirrored` for the front camera, so
 * that the person sees themselves as in a mirror.
 */
export function cameraVideoStyle(
  options: { mirrored?: boolean; maxHeight?: string } = {},
): CSSProperties {
  return {
    width: '100%',
    maxHeight: options.maxHeight,
    display: 'block',
    aspectRatio: '4 / 3',
    objectFit: 'cover',
    transform: options.mirrored ? 'scaleX(-1)' : undefined,
  };
}
