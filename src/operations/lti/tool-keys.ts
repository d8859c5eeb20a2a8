// The tool's RSA signing keys (lti_keys). One key is current (retired_at null; a partial unique index
// makes a second one impossible, so two requests that both find none agree on the one that got in).
// Rotation retires it and makes another; a retired key stays in the JWKS for a day so that platforms
// still verifying what it signed (a deep-linking response, a client assertion) find it.
import { sql } from 'kysely';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8 } from 'jose';
import type { Config } from '../../config.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { decryptPrivateKey, encryptPrivateKey } from '../../lib/lti-key-crypto.ts';
import { ltiSecret } from './configured.ts';

export const LTI_ALG = 'RS256';
/** How long a retired key stays published. */
export const RETIRED_KEY_PUBLISHED_MS = 24 * 60 * 60 * 1000;

/** An RSA public key as published: only the public members, and what it is for. */
export interface PublicJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: typeof LTI_ALG;
  use: 'sig';
}

interface KeyRow {
  kid: string;
  public_jwk: PublicJwk;
  private_key: string;
}

/** A new key pair: its public JWK (kid = RFC 7638 thumbprint) and the private key as encrypted PKCS#8. */
async function makeKey(secret: string): Promise<{ kid: string; publicJwk: PublicJwk; privateKey: string }> {
  const { publicKey, privateKey } = await generateKeyPair(LTI_ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  const publicJwk: PublicJwk = { kty: 'RSA', n: String(jwk.n), e: String(jwk.e), kid, alg: LTI_ALG, use: 'sig' };
  return { kid, publicJwk, privateKey: encryptPrivateKey(secret, kid, await exportPKCS8(privateKey)) };
}

async function insertKey(em: Em, secret: string, now: Date): Promise<void> {
  const key = await makeKey(secret);
  // Another request may have made the current key meanwhile: its key wins and this one is dropped.
  await sql`insert into lti_keys (kid, public_jwk, private_key, created_at)
            values (${key.kid}, ${JSON.stringify(key.publicJwk)}::jsonb, ${key.privateKey}, ${now})
            on conflict do nothing`.execute(db(em));
}

async function findCurrent(em: Em): Promise<KeyRow | undefined> {
  const { rows } = await sql<KeyRow>`select kid, public_jwk, private_key from lti_keys where retired_at is null`.execute(db(em));
  return rows[0];
}

/**
 * The current key row, made on first need. The first key is committed on its own connection (a fork
 * outside the caller's transaction): a caller about to ask a platform for a token inside a request's
 * transaction would otherwise hold the key uncommitted while the platform fetches the JWKS to check
 * it, and the JWKS request would wait on that transaction.
 */
async function currentRow(em: Em, secret: string, now: Date): Promise<KeyRow> {
  const found = await findCurrent(em);
  if (found) return found;
  await insertKey(em.fork(), secret, now);
  const made = await findCurrent(em);
  if (!made) throw new Error('LTI: no current key after making one');
  return made;
}

/** The key the tool signs with now: its kid and private key (decrypted). */
export async function signingKey(em: Em, config: Pick<Config, 'lti'>, clock: Clock): Promise<{ kid: string; key: CryptoKey }> {
  const secret = ltiSecret(config);
  const row = await currentRow(em, secret, clock.now());
  return { kid: row.kid, key: await importPKCS8(decryptPrivateKey(secret, row.kid, row.private_key), LTI_ALG) };
}

/** The JWKS: the current key (made on first need) and keys retired less than a day ago, newest first. */
export async function publishedKeys(em: Em, config: Pick<Config, 'lti'>, clock: Clock): Promise<{ keys: PublicJwk[] }> {
  const secret = ltiSecret(config);
  const now = clock.now();
  await currentRow(em, secret, now);
  const since = new Date(now.getTime() - RETIRED_KEY_PUBLISHED_MS);
  const { rows } = await sql<Pick<KeyRow, 'public_jwk'>>`select public_jwk from lti_keys
    where retired_at is null or retired_at > ${since} order by created_at desc, id desc`.execute(db(em));
  return { keys: rows.map((r) => r.public_jwk) };
}

/** Retires the current key and makes a new one (in the caller's transaction); the new key's kid and the retired one's. */
export async function rotateKeys(em: Em, config: Pick<Config, 'lti'>, clock: Clock): Promise<{ kid: string; retired_kid: string | null }> {
  const secret = ltiSecret(config);
  const now = clock.now();
  const { rows } = await sql<{ kid: string }>`update lti_keys set retired_at = ${now} where retired_at is null returning kid`.execute(db(em));
  await insertKey(em, secret, now);
  const current = await findCurrent(em);
  if (!current) throw new Error('LTI: no current key after rotating');
  return { kid: current.kid, retired_kid: rows[0]?.kid ?? null };
}
