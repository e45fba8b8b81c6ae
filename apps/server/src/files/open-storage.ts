/**
 * The storage the configuration names: STORAGE_URL's bucket when set (issue 32), otherwise
 * the folder DATA_DIR/files, as before. Chosen once at start; every route, job and command
 * goes through the FileStorage interface and never knows which.
 */
import path from 'node:path';
import type { Config } from '../config';
import { S3Storage, type StorageLog } from './s3-storage';
import { LocalStorage, type FileStorage } from './storage';

export async function openStorage(
  config: Pick<Config, 'dataDir' | 'storage'>,
  log?: StorageLog,
): Promise<FileStorage> {
  return config.storage
    ? await S3Storage.open(config.storage, log)
    : new LocalStorage(path.join(config.dataDir, 'files'));
}
