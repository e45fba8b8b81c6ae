/**
 * Files in an S3-compatible bucket (issue 32): every instance behind the load balancer
 * reads what any other stored. Keys are the bucket's prefix, a slash, and the stored name,
 * flat: a bucket has no folder-size limit to fan out against, and a flat layout lists in
 * one pass. Credentials come from the SDK's default chain (AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role), never from STORAGE_URL.
 *
 * A missing name is null, as on disk. Any other failure (missing bucket, refused
 * credentials, an endpoint that does not answer) is logged once per call and thrown as
 * StorageUnavailable: the request answers 503 with a readable message, never a bare 500.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { StorageLocation } from '../config';
import { errorCode } from '../errors';
import {
  assertSafeName,
  isSafeName,
  StorageUnavailable,
  type FileStorage,
  type StoredEntry,
  type StoredStream,
} from './storage';

/** The part of a logger the driver uses (pino's, Fastify's). */
export interface StorageLog {
  warn(details: object, message: string): void;
}

/** How long /api/ready waits for the bucket. */
export const CHECK_TIMEOUT_MS = 2_000;

function statusOf(error: unknown): number | undefined {
  // The SDK's errors are plain objects; $metadata is read when there is one.
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  // catch gives unknown; the SDK's and the network's errors carry a name.
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  // A Node Readable of bytes: each chunk is a Buffer (a Uint8Array).
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The SDK, loaded only when a bucket is configured (S3Storage.open). */
type S3Sdk = typeof import('@aws-sdk/client-s3');

export class S3Storage implements FileStorage {
  readonly client: S3Client;
  private readonly where: string;

  /**
   * The SDK is imported here, not at the top: it costs about 28 MB of memory, which a server
   * keeping its files in DATA_DIR (the default, a lobby PC's) should not pay (bench memory).
   */
  static async open(location: StorageLocation, log?: StorageLog): Promise<S3Storage> {
    return new S3Storage(await import('@aws-sdk/client-s3'), location, log);
  }

  private constructor(
    private readonly sdk: S3Sdk,
    readonly location: StorageLocation,
    private readonly log?: StorageLog,
  ) {
    this.client = new sdk.S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.pathStyle,
      // Checksums only where S3 requires them: S3-compatible stores (MinIO's older releases,
      // s3rver, several hosted ones) refuse the SDK's default trailing-checksum uploads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An endpoint that drops packets must not hold a request for minutes: a connection in
      // 3 s, and a socket silent for 30 s is given up (a long download keeps it busy).
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
    });
    this.where = `bucket ${location.bucket}${location.endpoint ? ` at ${location.endpoint}` : ''}`;
  }

  private keyOf(name: string): string {
    assertSafeName(name);
    return this.location.prefix ? `${this.location.prefix}/${name}` : name;
  }

  /** The sentence an operator reads for a failure that is not "no such file". */
  private describe(error: unknown): string {
    const status = statusOf(error);
    // catch gives unknown; the SDK's and the network's errors carry a name.
    const name = (error as { name?: string; code?: string } | null)?.name;
    if (name === 'NoSuchBucket' || (status === 404 && name === 'NotFound'))
      return `The ${this.where} does not exist.`;
    if (status === 403 || name === 'AccessDenied' || name === 'InvalidAccessKeyId')
      return `The ${this.where} refused access: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`;
    if (error instanceof this.sdk.S3ServiceException)
      return `The ${this.where} answered ${status ?? '?'} ${error.name}: ${error.message}`;
    if (name === 'AbortError' || name === 'TimeoutError')
      return `The ${this.where} did not answer in time.`;
    const code = errorCode(error);
    const message = error instanceof Error ? error.message : String(error);
    return `The ${this.where} could not be reached (${code ?? message}).`;
  }

  private fault(operation: string, name: string | undefined, error: unknown): StorageUnavailable {
    const sentence = this.describe(error);
    this.log?.warn({ err: error, operation, name }, sentence);
    return new StorageUnavailable(sentence, { cause: error });
  }

  async put(name: string, bytes: Buffer | Readable, size?: number): Promise<void> {
    const key = this.keyOf(name);
    // A stream of unknown length cannot be sent in one PutObject; uploads are bounded
    // (UPLOAD_MAX_BYTES), so it is gathered first. The move command passes the size.
    const body = Buffer.isBuffer(bytes) || size !== undefined ? bytes : await collect(bytes);
    const length = Buffer.isBuffer(body) ? body.length : size;
    try {
      await this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.location.bucket,
          Key: key,
          Body: body,
          ContentLength: length,
        }),
      );
    } catch (error) {
      throw this.fault('put', name, error);
    }
  }

  private async open(name: string): Promise<StoredStream | null> {
    const key = this.keyOf(name);
    try {
      const answer = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.location.bucket, Key: key }),
      );
      // In Node the body is an http.IncomingMessage: a Readable.
      const stream = answer.Body as Readable | undefined;
      if (!stream) return null;
      return { stream, size: answer.ContentLength };
    } catch (error) {
      // NoSuchKey: a missing file, never a storage fault. (A missing bucket is NoSuchBucket.)
      // catch gives unknown; the SDK's errors carry a name.
      if (isNotFound(error) && (error as { name?: string }).name !== 'NoSuchBucket') return null;
      throw this.fault('get', name, error);
    }
  }

  async get(name: string): Promise<Buffer | null> {
    const opened = await this.open(name);
    if (!opened) return null;
    try {
      return await collect(opened.stream);
    } catch (error) {
      throw this.fault('get', name, error);
    }
  }

  getStream(name: string): Promise<StoredStream | null> {
    return this.open(name);
  }

  async remove(name: string): Promise<void> {
    const key = this.keyOf(name);
    try {
      // S3 answers 204 for a key that is not there: removing twice is harmless, as on disk.
      await this.client.send(
        new this.sdk.DeleteObjectCommand({ Bucket: this.location.bucket, Key: key }),
      );
    } catch (error) {
      // catch gives unknown; the SDK's errors carry a name.
      if (isNotFound(error) && (error as { name?: string }).name !== 'NoSuchBucket') return;
      throw this.fault('remove', name, error);
    }
  }

  async *list(): AsyncIterable<StoredEntry> {
    const prefix = this.location.prefix ? `${this.location.prefix}/` : '';
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new this.sdk.ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: prefix || undefined,
            ContinuationToken: token,
          }),
        );
      } catch (error) {
        throw this.fault('list', undefined, error);
      }
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(prefix.length);
        // Keys under a deeper "folder", or not of our making, are another tool's: left alone.
        if (!name || !isSafeName(name)) continue;
        yield {
          name,
          size: object.Size ?? 0,
          modifiedAt: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
  }

  async check(): Promise<void> {
    try {
      // Readiness answers fast: one try, two seconds at most.
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.location.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      // HeadBucket has no body: a 404 says only NotFound, which here is the bucket.
      const sentence =
        statusOf(error) === 404 ? `The ${this.where} does not exist.` : this.describe(error);
      throw new StorageUnavailable(sentence, { cause: error });
    }
  }
}
