// The LTI tool's private keys at rest: AES-256-GCM under a key derived from LTI_KEY_SECRET with HKDF
// (the secret is required to be at least 32 characters of operator-chosen randomness, so a slow KDF
// such as scrypt would add nothing but start-up cost). The key's `kid` is the additional data, so a
// ciphertext copied onto another row does not decrypt.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const SALT = 'course-service/lti_keys';
const INFO = 'lti_keys.private_key aes-256-gcm v1';

function derive(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
}

/** `v1:<iv>:<tag>:<ciphertext>`, each base64url. */
export function encryptPrivateKey(secret: string, kid: string, pem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(secret), iv);
  cipher.setAAD(Buffer.from(kid));
  const body = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
}

/** The PEM back; throws when the secret (or the kid) differs from the one it was encrypted with. */
export function decryptPrivateKey(secret: string, kid: string, stored: string): string {
  const [version, iv, tag, body] = stored.split(':');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error(`LTI key ${kid}: unknown encryption format`);
  const decipher = createDecipheriv('aes-256-gcm', derive(secret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
