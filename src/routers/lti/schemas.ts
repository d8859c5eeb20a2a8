import { z } from 'zod';

/** A public key as RFC 7517 has it; what a platform fetches from the tool's JWKS. */
export const publicJwkOut = z.object({
  kty: z.string(),
  kid: z.string(),
  alg: z.literal('RS256'),
  use: z.literal('sig'),
  n: z.string(),
  e: z.string(),
});

export const jwksOut = z.object({ keys: z.array(publicJwkOut) });

export const rotatedOut = z.object({ kid: z.string(), retired_kid: z.string().nullable() });
