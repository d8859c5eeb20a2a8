import { defineEntity, p } from '@mikro-orm/core';

/**
 * Failed sign-ins counted by `rate-limiter-flexible`'s PostgreSQL store (src/operations/auth/sign-in-throttle.ts),
 * one row per key: `<prefix>:<address>/<username>` or `<prefix>:<address>`, with the failures
 * (`points`) of the window that ends at `expire` (milliseconds since 1970). The library reads and
 * writes the columns by position, so they keep its names and order. Kept in the database so that
 * every API process counts against the same rows; created here, not by the library at run time.
 */
export const SignInFailure = defineEntity({
  name: 'SignInFailure',
  tableName: 'sign_in_failures',
  properties: {
    key: p.string().length(255).primary(),
    points: p.integer().default(0),
    expire: p.bigint('number').nullable(),
  },
});

/** SAML assertions already exchanged for a token, remembered until they could no longer be used anyway. */
export const UsedSamlAssertion = defineEntity({
  name: 'UsedSamlAssertion',
  tableName: 'used_saml_assertions',
  properties: {
    assertionId: p.string().length(255).primary(),
    expiresAt: p.datetime().index(),
  },
});
