/**
 * Chromium's fake camera for the in-app scanner: a video showing a code, then nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A short Y4M video for Chromium's fake camera, played in a loop: two seconds of the
 * code, then two seconds of an empty white frame — a badge shown, taken away, shown
 * again. The scanner reads a code once until it has left the frame.
 */
export async function videoOf(png: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-camera-'));
  const code = path.join(dir, 'code.png');
  const blank = path.join(dir, 'blank.png');
  const video = path.join(dir, 'qr.y4m');
  await writeFile(code, png);
  const frame = 'scale=400:400,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=white,setsar=1,fps=10';
  try {
    await run(
      'ffmpeg',
      ['-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=white:s=400x400'].concat([
        '-frames:v',
        '1',
        blank,
      ]),
    );
    await run('ffmpeg', [
      '-loglevel',
      'error',
      ...['-loop', '1', '-t', '2', '-i', code],
      ...['-loop', '1', '-t', '2', '-i', blank],
      '-filter_complex',
      `[0:v]${frame}[a];[1:v]${frame}[b];[a][b]concat=n=2:v=1,format=yuv420p[out]`,
      ...['-map', '[out]', video],
    ]);
  } catch (error) {
    throw new Error('ffmpeg is needed for the fake camera: apt-get install -y ffmpeg', {
      cause: error,
    });
  }
  return video;
}

/** Chromium flags that play `video` as the camera, the permission granted. */
export function fakeCameraFlags(video: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ];
}
