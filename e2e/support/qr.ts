/**
 * Decodes QR images with a real decoder: zbarimg (Debian's zbar-tools).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function decodeQr(image: string | Buffer): Promise<string> {
  let file = typeof image === 'string' ? image : '';
  if (Buffer.isBuffer(image)) {
    file = path.join(os.tmpdir(), `sesame-qr-${process.pid}-${Date.now()}.png`);
    await writeFile(file, image);
  }
  try {
    const { stdout } = await run('zbarimg', ['--raw', '-q', file]);
    return stdout.trim();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT')
      throw new Error('zbarimg not found: install it with `apt-get install -y zbar-tools`.', {
        cause: error,
      });
    throw new Error(`no QR code found in ${file}`, { cause: error });
  }
}
