import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Failed sign-ins in the current fixed window, one row per throttled key (`username:<name>` or
 * `address:<ip>`). Kept in the database so that every API process counts against the same rows.
 */
export const SignInThrottle = defineEntity({
  name: 'SignInThrottle',
  tableName: 'sign_in_throttles',
  properties: {
    key: p.string().length(300).primary(),
    failures: p.integer(),
    windowEndsAt: p.datetime(),
  },
});
export type ISignInThrottle = InferEntity<typeof SignInThrottle>;

/** SAML assertions already exchanged for a token, remembered until they could no longer be used anyway. */
export const UsedSamlAssertion = defineEntity({
  name: 'UsedSamlAssertion',
  tableName: 'used_saml_assertions',
  properties: {
    assertionId: p.string().length(255).primary(),
    expiresAt: p.datetime().index(),
  },
});
export type IUsedSamlAssertion = InferEntity<typeof UsedSamlAssertion>;
