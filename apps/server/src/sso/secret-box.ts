/**
 * The companies' identity-provider client secrets at rest (issue 33): AES-256-GCM with a key
 * drawn by HKDF from SSO_SECRET_KEY (else JWT_SECRET), so the database alone never gives a
 * secret back. A stored value reads `v1.<iv>.<ciphertext+tag>` (base64url): the version lets
 * a later key or cipher live beside this one. A value sealed under another key does not open
 * (null): the admin types the secret again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SealedPurpose = 'sso-client-secret' | 'webhook-secret' | 'chat-secret';

export class SecretBox {
  private readonly key: Buffer;

  /**
   * `purpose` draws a distinct key for each kind of secret (issue 34: webhook secrets, chat
   * URLs and tokens), so one kind's sealed value never opens as another's.
   */
  constructor(secret: string, purpose: SealedPurpose = 'sso-client-secret') {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'sesame', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([
      cipher.update(plain, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The plain secret, or null when the value was sealed under another key or is damaged. */
  open(stored: string): string | null {
    const [version, iv, sealed] = stored.split('.');
    if (version !== VERSION || !iv || !sealed) return null;
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}
