/**
 * One temporary folder per test run. Every test (server data folders, browser
 * profiles, fake-camera videos, downloads, QR images) writes under os.tmpdir();
 * pointing TMPDIR at a fresh folder here, before the workers start, gathers them
 * in one place that is removed when the run ends, instead of ~9 MB left behind in
 * the system's temporary folder per run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function useTestTempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sesame-test-run-'));
  process.env.TMPDIR = root;
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}
