import { generateKeyPairSync, sign as rsaSign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SignedXml } from 'xml-crypto';
import { AuthToken, UsedSamlAssertion, User } from '../../schema/index.ts';
import {
  conditionsProblem,
  decodeSamlResponse,
  identityFrom,
  idpKeysFromPem,
  roleForNewUser,
  SamlError,
  type SamlAssertion,
} from '../../src/operations/auth/saml-assertion.ts';
import { hashToken } from '../../src/operations/auth/session-tokens.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';

// ---------------------------------------------------------------------------------------------
// A test identity provider: an RSA key with a self-signed X.509 certificate, built here with
// node:crypto (DER by hand) so the tests need no openssl and no committed key material.

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const lengthBytes: number[] = [];
  for (let n = body.length; n > 0; n >>= 8) lengthBytes.unshift(n & 0xff);
  const length = body.length < 128 ? [body.length] : [0x80 | lengthBytes.length, ...lengthBytes];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
const seq = (...parts: Buffer[]) => der(0x30, ...parts);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const encoded = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) encoded.unshift((v & 0x7f) | 0x80);
    bytes.push(...encoded);
  }
  return der(0x06, Buffer.from(bytes));
}
const utcTime = (d: Date) => der(0x17, Buffer.from(`${d.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));

function selfSignedCertificate(keys: { publicKey: KeyObject; privateKey: KeyObject }, commonName: string): string {
  const sha256WithRsa = seq(oid('1.2.840.113549.1.1.11'), der(0x05));
  const name = seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName)))));
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))), // v3
    der(0x02, Buffer.from([1])),
    sha256WithRsa,
    name,
    seq(utcTime(new Date('2020-01-01T00:00:00Z')), utcTime(new Date('2045-01-01T00:00:00Z'))),
    name,
    keys.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = rsaSign('sha256', tbs, keys.privateKey);
  const cert = seq(tbs, sha256WithRsa, der(0x03, Buffer.from([0]), signature));
  return `-----BEGIN CERTIFICATE-----\n${cert
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
}

function testIdp(commonName: string) {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    certificate: selfSignedCertificate(keys, commonName),
  };
}

const IDP = testIdp('idp.example.edu');
const ATTACKER = testIdp('idp.example.edu'); // same name, different key

// ---------------------------------------------------------------------------------------------
// SAML responses as a Shibboleth-style identity provider sends them

const AUDIENCE = 'https://courses.example.edu/saml/metadata';
const ISSUER = 'https://idp.example.edu/idp/shibboleth';
const MINUTE = 60_000;
// Namespaces and fixed values of the documents below.
const PROTOCOL_NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"';
const ASSERTION_NS = 'xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
const SCHEMA_NS = 'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const ACS = 'https://courses.example.edu/api/auth/jwt';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const PASSWORD_PROTECTED = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface AssertionOptions {
  /** Default: a new ID for every assertion, as an identity provider issues them. */
  id?: string;
  nameId?: string;
  nameIdFormat?: string;
  /** [Name, FriendlyName, values] */
  attributes?: [string, string | null, string[]][];
  notBefore?: Date;
  /** null: no NotOnOrAfter anywhere in the assertion. */
  notOnOrAfter?: Date | null;
  audience?: string | null;
}

let serial = 0;
const freshId = () => `_id${++serial}`;

const JANE: [string, string | null, string[]][] = [
  ['urn:oid:0.9.2342.19200300.100.1.3', 'mail', ['jane.citizen@example.edu']],
  ['urn:oid:2.5.4.42', 'givenName', ['Jane']],
  ['urn:oid:2.5.4.4', 'sn', ['Citizen']],
  ['urn:oid:0.9.2342.19200300.100.1.1', 'uid', ['jcitizen']],
  ['urn:oid:1.3.6.1.4.1.5923.1.1.1.1', 'eduPersonAffiliation', ['student', 'member']],
];

function assertionXml(o: AssertionOptions = {}): string {
  const now = env.clock.now();
  const notBefore = o.notBefore ?? new Date(now.getTime() - MINUTE);
  const notOnOrAfter = o.notOnOrAfter === undefined ? new Date(now.getTime() + 5 * MINUTE) : o.notOnOrAfter;
  const until = notOnOrAfter ? ` NotOnOrAfter="${notOnOrAfter.toISOString()}"` : '';
  const audience = o.audience === undefined ? AUDIENCE : o.audience;
  const attributes = (o.attributes ?? JANE)
    .map(
      ([name, friendly, values]) =>
        `      <saml:Attribute Name="${esc(name)}"${friendly ? ` FriendlyName="${esc(friendly)}"` : ''}` +
        ` NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">\n` +
        values.map((v) => `        <saml:AttributeValue xsi:type="xs:string">${esc(v)}</saml:AttributeValue>\n`).join('') +
        `      </saml:Attribute>\n`,
    )
    .join('');
  return `<saml:Assertion ${ASSERTION_NS} ${SCHEMA_NS} ID="${o.id ?? freshId()}" Version="2.0" IssueInstant="${now.toISOString()}">
    <saml:Issuer>${ISSUER}</saml:Issuer>
    <saml:Subject>
      <saml:NameID Format="${o.nameIdFormat ?? TRANSIENT}">${esc(o.nameId ?? '_8e8dc5f69a98cc4c1ff3427e5ce34606fd672f91e6')}</saml:NameID>
      <saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">
        <saml:SubjectConfirmationData${until} Recipient="${ACS}" InResponseTo="_request1"/>
      </saml:SubjectConfirmation>
    </saml:Subject>
    <saml:Conditions NotBefore="${notBefore.toISOString()}"${until}>
${audience === null ? '' : `      <saml:AudienceRestriction><saml:Audience>${esc(audience)}</saml:Audience></saml:AudienceRestriction>\n`}    </saml:Conditions>
    <saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_session1">
      <saml:AuthnContext><saml:AuthnContextClassRef>${PASSWORD_PROTECTED}</saml:AuthnContextClassRef></saml:AuthnContext>
    </saml:AuthnStatement>
    <saml:AttributeStatement>
${attributes}    </saml:AttributeStatement>
  </saml:Assertion>`;
}

function responseXml(assertions: string[], status = 'urn:oasis:names:tc:SAML:2.0:status:Success'): string {
  const issued = env.clock.now().toISOString();
  return `<?xml version="1.0" encoding="UTF-8"?>
<samlp:Response ${PROTOCOL_NS} ${ASSERTION_NS} ID="_response1" Version="2.0" IssueInstant="${issued}" Destination="${ACS}" InResponseTo="_request1">
  <saml:Issuer>${ISSUER}</saml:Issuer>
  <samlp:Status><samlp:StatusCode Value="${status}"/></samlp:Status>
  ${assertions.join('\n  ')}
</samlp:Response>`;
}

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

interface SignOptions {
  idp?: typeof IDP;
  target?: 'assertion' | 'response';
  /** Which assertion to sign; default the first. */
  assertionId?: string;
  signatureAlgorithm?: string;
  digestAlgorithm?: string;
}

/** Signs an assertion or the whole response, as an IdP does (RSA-SHA256 unless told otherwise). */
function sign(xml: string, options: SignOptions = {}): string {
  const idp = options.idp ?? IDP;
  const sig = new SignedXml({
    privateKey: idp.privateKey,
    publicCert: idp.certificate,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: options.signatureAlgorithm ?? RSA_SHA256,
  });
  const target =
    options.target === 'response'
      ? "/*[local-name(.)='Response']"
      : options.assertionId
        ? `//*[local-name(.)='Assertion' and @ID='${options.assertionId}']`
        : "(//*[local-name(.)='Assertion'])[1]";
  sig.addReference({
    xpath: target,
    digestAlgorithm: options.digestAlgorithm ?? SHA256,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  // The schema puts the signature right after the Issuer of the signed element.
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
/** The usual case: a response with one assertion, the assertion signed by the IdP. */
const signedResponse = (o: AssertionOptions = {}) => b64(sign(responseXml([assertionXml(o)])));

// ---------------------------------------------------------------------------------------------

const test = suite('REST /api/auth/jwt');
let env: TestEnv;
let people: People;
let saved: { authMethod: typeof env.config.authMethod; saml: typeof env.config.saml };

freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(() => {
  // The config object is shared by the whole run: change it here, put it back after each test.
  saved = { authMethod: env.config.authMethod, saml: env.config.saml };
  env.config.authMethod = 'saml';
  env.config.saml = { ...saved.saml, idpCert: IDP.certificate, audience: AUDIENCE };
});

test.after.each(() => {
  env.config.authMethod = saved.authMethod;
  env.config.saml = saved.saml;
});

const counts = async () => {
  const em = env.orm.em.fork();
  return { users: await em.count(User, {}), tokens: await em.count(AuthToken, {}) };
};
const post = (SAMLResponse: unknown) => api(env, 'POST', '/api/auth/jwt', { json: { SAMLResponse } });

/** Posts the response and expects 401 "Invalid SAML response." with nothing written. */
async function rejected(samlResponse: unknown, label: string) {
  const before = await counts();
  const res = await post(samlResponse);
  assert.is(res.status, 401, label);
  assert.equal(res.body, { error: 'Invalid SAML response.' }, label);
  assert.equal(await counts(), before, label);
}

test('a valid response creates the user, and the token it returns works', async () => {
  const before = await counts();
  const res = await post(signedResponse());
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), ['token', 'user']);
  assert.equal(res.body.user, { email: 'jane.citizen@example.edu', name: 'Jane Citizen' });
  assert.type(res.body.token, 'string');
  assert.equal(await counts(), { users: before.users + 1, tokens: before.tokens + 1 });

  const user = await env.orm.em.fork().findOneOrFail(User, { email: 'jane.citizen@example.edu' });
  assert.equal(
    [user.username, user.firstName, user.lastName, user.systemRole, user.passwordHash, user.hasRunFirstTimeSetup],
    ['jcitizen', 'Jane', 'Citizen', 'Student', null, false],
  );
  // Remembered: two weeks for a student.
  const stored = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(res.body.token) });
  assert.is(stored.expiresAt.getTime() - env.clock.now().getTime(), 14 * 24 * 60 * MINUTE);

  const renewed = await api(env, 'PUT', '/api/auth', { as: { username: 'jcitizen', token: res.body.token }, json: { username: 'jcitizen' } });
  assert.is(renewed.status, 201);
  assert.equal(renewed.body, { auth_token: res.body.token });
});

test('a response signed as a whole is accepted too, from a form body', async () => {
  const res = await api(env, 'POST', '/api/auth/jwt', { form: { SAMLResponse: b64(sign(responseXml([assertionXml()]), { target: 'response' })) } });
  assert.is(res.status, 201);
  assert.equal(res.body.user, { email: 'jane.citizen@example.edu', name: 'Jane Citizen' });
});

test('the SAMLResponse may arrive as a header, as the spec lists it', async () => {
  const res = await api(env, 'POST', '/api/auth/jwt', { headers: { SAMLResponse: b64(sign(responseXml([assertionXml()]))) } });
  assert.is(res.status, 201);
  assert.equal(res.body.user, { email: 'jane.citizen@example.edu', name: 'Jane Citizen' });
});

test('a response whose assertion and whole are both signed is accepted', async () => {
  const inner = sign(responseXml([assertionXml()]));
  const res = await post(b64(sign(inner, { target: 'response' })));
  assert.is(res.status, 201);
});

test('signing in again finds the same user; an existing user is matched by email in any case', async () => {
  const first = await post(signedResponse());
  const second = await post(signedResponse());
  assert.is(second.status, 201);
  assert.is.not(second.body.token, first.body.token);
  assert.is(await env.orm.em.fork().count(User, { email: 'jane.citizen@example.edu' }), 1);

  // astudent@example.edu exists (fixtures); the IdP writes the address in capitals, uid differs.
  const before = await counts();
  const res = await post(
    signedResponse({
      nameId: 'AStudent@Example.EDU',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      attributes: [
        ['urn:oid:2.5.4.42', 'givenName', ['Different']],
        ['urn:oid:0.9.2342.19200300.100.1.1', 'uid', ['s1234567']],
        ['urn:oid:1.3.6.1.4.1.5923.1.1.1.1', 'eduPersonAffiliation', ['staff']],
      ],
    }),
  );
  assert.is(res.status, 201);
  assert.equal(res.body.user, { email: people.student.user.email, name: `${people.student.user.firstName} ${people.student.user.lastName}` });
  assert.equal(await counts(), { users: before.users, tokens: before.tokens + 1 });
  const stored = await env.orm.em.fork().findOneOrFail(AuthToken, { tokenHash: hashToken(res.body.token) }, { populate: ['user'] });
  assert.is(stored.user.id, people.student.user.id);
  assert.is(stored.user.systemRole, 'Student'); // an existing account keeps its role
});

test('stored addresses are compared without case, and literally', async () => {
  const mixed = await createUser(env, 'mcase', 'Tutor', { email: 'Mixed.Case@Example.edu' });
  const plain = await createUser(env, 'plain', 'Tutor', { email: 'axb@example.edu' });
  const found = await post(
    signedResponse({
      attributes: [
        ['mail', null, ['mixed.case@example.edu']],
        ['uid', null, ['someone']],
      ],
    }),
  );
  assert.is(found.status, 201);
  assert.is(found.body.user.email, 'Mixed.Case@Example.edu');
  assert.is(await env.orm.em.fork().count(AuthToken, { user: mixed.id }), 1);
  // '_' is a wildcard in LIKE patterns; it must not let a_b@ sign in as axb@.
  const other = await post(
    signedResponse({
      attributes: [
        ['mail', null, ['a_b@example.edu']],
        ['uid', null, ['a_b']],
      ],
    }),
  );
  assert.is(other.status, 201);
  assert.is(other.body.user.email, 'a_b@example.edu');
  assert.is(await env.orm.em.fork().count(AuthToken, { user: plain.id }), 0);
});

test('a uid equal to a local username never signs in as that user: an IdP user "admin" is not the Admin', async () => {
  const admin = await createUser(env, 'admin', 'Admin', { email: 'it.admin@example.edu' });
  const adminTokens = await env.orm.em.fork().count(AuthToken, { user: admin.id });
  const before = await counts();
  const res = await post(
    signedResponse({
      attributes: [
        ['mail', null, ['mallory@example.edu']],
        ['uid', null, ['Admin']],
      ],
    }),
  );
  assert.is(res.status, 201);
  assert.is(res.body.user.email, 'mallory@example.edu');
  assert.equal(await counts(), { users: before.users + 1, tokens: before.tokens + 1 });
  const created = await env.orm.em.fork().findOneOrFail(User, { email: 'mallory@example.edu' });
  assert.equal([created.username, created.systemRole, created.passwordHash], ['admin2', 'Student', null]);
  assert.is(await env.orm.em.fork().count(AuthToken, { user: admin.id }), adminTokens);

  // The same for an existing tutor's username: a new account with the next free username.
  const tutorLike = await post(
    signedResponse({
      attributes: [
        ['mail', null, ['tutor.new.address@example.edu']],
        ['uid', null, ['ATutor']],
      ],
    }),
  );
  assert.is(tutorLike.status, 201);
  assert.is(tutorLike.body.user.email, 'tutor.new.address@example.edu');
  assert.is((await env.orm.em.fork().findOneOrFail(User, { email: 'tutor.new.address@example.edu' })).username, 'atutor2');
});

test('a response is accepted once: a replay of the same assertion is refused', async () => {
  const saml = signedResponse({ id: '_once' });
  const first = await post(saml);
  assert.is(first.status, 201);
  const [used] = await env.orm.em.fork().find(UsedSamlAssertion, {});
  assert.is(used.assertionId, '_once');
  // Kept until the assertion would be refused as expired anyway: NotOnOrAfter plus the skew.
  assert.is(used.expiresAt.getTime(), env.clock.now().getTime() + 5 * MINUTE + 2 * MINUTE);
  await rejected(saml, 'replayed');
  // Re-signed as a whole by whoever holds the assertion cannot help either: it is the same assertion.
  const sameAssertion = sign(responseXml([assertionXml({ id: '_once' })]), { target: 'response' });
  await rejected(b64(sameAssertion), 'same assertion id in another response');
});

test('two uses of one assertion at the same moment give one token', async () => {
  const saml = signedResponse();
  const answers = await Promise.all([post(saml), post(saml), post(saml)]);
  assert.equal(answers.map((a) => a.status).sort(), [201, 401, 401]);
});

test('an assertion without NotOnOrAfter is refused', async () => {
  await rejected(signedResponse({ notOnOrAfter: null }), 'no NotOnOrAfter');
});

test('SHA-1 signatures and digests are refused; SHA-512 is accepted', async () => {
  const xml = () => responseXml([assertionXml()]);
  await rejected(b64(sign(xml(), { signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' })), 'rsa-sha1');
  await rejected(b64(sign(xml(), { digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1' })), 'sha1 digest');
  await rejected(b64(sign(xml(), { target: 'response', signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' })), 'rsa-sha1 response');
  const strong = sign(xml(), {
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha512',
  });
  assert.is((await post(b64(strong))).status, 201);
});

test('staff and faculty affiliations make a tutor; anyone else is a student', async () => {
  const cases: [string, string, string[], string][] = [
    ['urn:oid:1.3.6.1.4.1.5923.1.1.1.1', 'sam.staff@example.edu', ['member', 'staff'], 'Tutor'],
    ['eduPersonAffiliation', 'fay.faculty@example.edu', ['Faculty'], 'Tutor'],
    ['urn:oid:1.3.6.1.4.1.5923.1.1.1.1', 'stu.dent@example.edu', ['student', 'member'], 'Student'],
    ['urn:oid:1.3.6.1.4.1.5923.1.1.1.1', 'al.umnus@example.edu', ['alum'], 'Student'],
  ];
  for (const [name, email, affiliation, role] of cases) {
    const res = await post(
      signedResponse({
        attributes: [
          ['mail', null, [email]],
          [name, null, affiliation],
        ],
      }),
    );
    assert.is(res.status, 201, email);
    const user = await env.orm.em.fork().findOneOrFail(User, { email });
    assert.is(user.systemRole, role, email);
  }
  const tutor = await env.orm.em.fork().findOneOrFail(User, { email: 'sam.staff@example.edu' });
  const token = await env.orm.em.fork().findOneOrFail(AuthToken, { user: tutor.id });
  assert.is(token.expiresAt.getTime() - env.clock.now().getTime(), 7 * 24 * 60 * MINUTE); // remembered tutor: 1 week
});

test('an email NameID is used, and missing names fall back to the local part and "Unknown"', async () => {
  const res = await post(
    signedResponse({ nameId: 'Pat.Lee@Example.edu', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', attributes: [] }),
  );
  assert.is(res.status, 201);
  assert.equal(res.body.user, { email: 'pat.lee@example.edu', name: 'pat.lee Unknown' });
  const user = await env.orm.em.fork().findOneOrFail(User, { email: 'pat.lee@example.edu' });
  assert.equal([user.username, user.firstName, user.lastName], ['pat.lee', 'pat.lee', 'Unknown']);
});

test('a response without any email address is refused', async () => {
  await rejected(signedResponse({ attributes: [['uid', null, ['nobody']]] }), 'no email');
});

test('the certificate may be a public key, a file path, or PEM with escaped line breaks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'saml-cert-'));
  writeFileSync(join(dir, 'idp.pem'), IDP.certificate);
  const settings = [IDP.publicKey, join(dir, 'idp.pem'), IDP.certificate.replace(/\n/g, '\\n'), ATTACKER.certificate + IDP.certificate];
  for (const [i, idpCert] of settings.entries()) {
    env.config.saml = { ...env.config.saml, idpCert };
    const res = await post(signedResponse());
    assert.is(res.status, 201, `setting ${i}`);
  }
});

test('an assertion changed after signing is refused', async () => {
  const signed = sign(responseXml([assertionXml()]));
  await rejected(b64(signed.replace('jane.citizen@example.edu', 'astudent@example.edu')), 'changed email');
  await rejected(b64(signed.replace('>student<', '>staff<')), 'changed affiliation');
  await rejected(b64(signed.replace(/NotOnOrAfter="[^"]+"/g, 'NotOnOrAfter="2099-01-01T00:00:00Z"')), 'extended validity');
  const wholeSigned = sign(responseXml([assertionXml()]), { target: 'response' });
  await rejected(b64(wholeSigned.replace('>Jane<', '>Janet<')), 'changed inside a signed response');
});

test('a response signed by another key is refused, even with its certificate in KeyInfo', async () => {
  const forged = sign(responseXml([assertionXml({ attributes: [['mail', null, ['aadmin@example.edu']]] })]), { idp: ATTACKER });
  assert.ok(forged.includes('X509Certificate'));
  await rejected(b64(forged), 'other key');
  await rejected(b64(sign(responseXml([assertionXml()]), { idp: ATTACKER, target: 'response' })), 'other key, response');
});

test('an unsigned response is refused', async () => {
  await rejected(b64(responseXml([assertionXml()])), 'unsigned');
  // A signature stripped of its value does not count either.
  const stripped = sign(responseXml([assertionXml()])).replace(/<ds:SignatureValue>[^<]*<\/ds:SignatureValue>/, '<ds:SignatureValue></ds:SignatureValue>');
  await rejected(b64(stripped), 'empty signature value');
  const removed = sign(responseXml([assertionXml()])).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
  await rejected(b64(removed), 'signature removed');
});

test('signature wrapping never signs in as the injected identity', async () => {
  const evil = assertionXml({
    id: '_evil',
    attributes: [
      ['mail', null, ['aadmin@example.edu']],
      ['uid', null, ['aadmin']],
    ],
  });
  const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(sign(responseXml([assertionXml({ id: '_assertion1' })])))![0];
  const evilSameId = evil.replace('ID="_evil"', 'ID="_assertion1"');
  const attempts: [string, string][] = [
    // an unsigned assertion placed before the signed one
    ['injected first', responseXml([evil, signedAssertion])],
    // the same, reusing the signed assertion's ID
    ['injected first with the same ID', responseXml([evilSameId, signedAssertion])],
    // the signed assertion hidden inside the injected one
    ['signed one nested', responseXml([evil.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${signedAssertion}</saml:Advice>`)])],
    // the signed assertion moved into the response's Extensions, the injected one in its place
    ['signed one in Extensions', responseXml([evil]).replace('<samlp:Status>', `<samlp:Extensions>${signedAssertion}</samlp:Extensions><samlp:Status>`)],
  ];
  // A response signed as a whole, wrapped inside a new outer response with the injected assertion.
  const signedWhole = sign(responseXml([assertionXml()]), { target: 'response' }).replace(/^<\?xml[^>]*>\s*/, '');
  attempts.push([
    'signed response wrapped',
    responseXml([evil])
      .replace('ID="_response1"', 'ID="_outer"')
      .replace('<samlp:Status>', `<samlp:Extensions>${signedWhole}</samlp:Extensions><samlp:Status>`),
  ]);

  // A response carries one assertion, so all of these are refused outright; none may ever sign
  // in as the injected identity.
  for (const [label, xml] of attempts) {
    await rejected(b64(xml), label);
    assert.is(await env.orm.em.fork().count(AuthToken, { user: people.admin.user.id }), 1, `${label}: no token for the injected identity`);
  }
  // Even an injected assertion that is validly signed by the IdP itself (another user's) is refused.
  const otherSigned = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(sign(responseXml([evil]), { assertionId: '_evil' }))![0];
  await rejected(b64(responseXml([otherSigned, signedAssertion])), 'two signed assertions');
});

test('a comment inside the signed NameID cannot shorten it', async () => {
  const victim = await createUser(env, 'kvictim', 'Convenor', { email: 'kim.victim@example.edu' });
  const signed = sign(
    responseXml([
      assertionXml({ nameId: 'kim.victim@example.edu.evil.test', nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', attributes: [] }),
    ]),
  );
  const res = await post(b64(signed.replace('kim.victim@example.edu.evil.test', 'kim.victim@example.edu<!---->.evil.test')));
  assert.is(res.status, 201);
  assert.is(res.body.user.email, 'kim.victim@example.edu.evil.test');
  assert.is(await env.orm.em.fork().count(AuthToken, { user: victim.id }), 0);
});

test('an expired or not yet valid response is refused; two minutes of clock skew are allowed', async () => {
  const now = env.clock.now().getTime();
  await rejected(signedResponse({ notBefore: new Date(now - 10 * MINUTE), notOnOrAfter: new Date(now - 3 * MINUTE) }), 'expired');
  await rejected(signedResponse({ notBefore: new Date(now + 3 * MINUTE), notOnOrAfter: new Date(now + 10 * MINUTE) }), 'not yet valid');
  const late = await post(signedResponse({ notBefore: new Date(now - 10 * MINUTE), notOnOrAfter: new Date(now - MINUTE) }));
  assert.is(late.status, 201);
  const early = await post(signedResponse({ notBefore: new Date(now + MINUTE), notOnOrAfter: new Date(now + 10 * MINUTE) }));
  assert.is(early.status, 201);
  // A response that was valid when issued is refused once the clock passes its end.
  const saml = signedResponse();
  env.clock.advance(8 * MINUTE);
  await rejected(saml, 'replayed later');
});

test('the audience must be this service; without one configured single sign-on is refused', async () => {
  await rejected(signedResponse({ audience: 'https://other.example.edu/sp' }), 'wrong audience');
  await rejected(signedResponse({ audience: null }), 'no audience restriction');
  env.config.saml = { ...env.config.saml, audience: undefined };
  const before = await counts();
  const res = await post(signedResponse({ audience: 'https://other.example.edu/sp' }));
  assert.is(res.status, 403);
  assert.equal(res.body, { error: 'Single sign-on is not configured' });
  assert.equal(await counts(), before);
});

test('a response whose status is not Success is refused', async () => {
  const xml = responseXml([assertionXml()], 'urn:oasis:names:tc:SAML:2.0:status:Responder');
  await rejected(b64(sign(xml)), 'responder status');
  await rejected(b64(sign(xml, { target: 'response' })), 'responder status, signed');
});

test('garbage is refused with 401, never a 500', async () => {
  const garbage = [
    'not base64 at all!',
    'AAAA',
    b64('plain text, not XML'),
    b64('<unclosed>'),
    b64('<?xml version="1.0"?><root/>'),
    b64('<!DOCTYPE x [<!ENTITY a "aaaa">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&a;</samlp:Response>'),
    b64(assertionXml()), // an assertion is not a response
    Buffer.from([0xff, 0xfe, 0x00, 0x3c]).toString('base64'),
  ];
  for (const [i, value] of garbage.entries()) await rejected(value, `garbage ${i}`);
});

test('a missing SAMLResponse is a 400; an unconfigured service answers 403', async () => {
  const before = await counts();
  for (const json of [{}, { SAMLResponse: '' }, { SAMLResponse: '   ' }]) {
    const res = await api(env, 'POST', '/api/auth/jwt', { json });
    assert.is(res.status, 400);
    assert.equal(res.body, { error: 'SAMLResponse is missing' });
  }
  const wrongType = await post(['a', 'b']);
  assert.is(wrongType.status, 400);
  assert.equal(wrongType.body, { error: 'SAMLResponse is invalid' });

  const valid = signedResponse();
  env.config.saml = { ...env.config.saml, idpCert: undefined };
  const noCert = await post(valid);
  assert.is(noCert.status, 403);
  assert.equal(noCert.body, { error: 'Single sign-on is not configured' });
  env.config.saml = { ...env.config.saml, idpCert: '/nonexistent/idp.pem' };
  assert.is((await post(valid)).status, 403);
  env.config.saml = { ...env.config.saml, idpCert: IDP.certificate };
  env.config.authMethod = 'database';
  assert.is((await post(valid)).status, 403);
  assert.equal(await counts(), before);
});

test.run();

// ---------------------------------------------------------------------------------------------
// The pure parts, without HTTP or a database

const unit = suite('saml-assertion');
const NOW = new Date('2026-03-02T00:00:00.000Z');

/** By default a usable assertion: an ID, ending in 5 minutes, for the audience 'sp'. */
function assertion(partial: Partial<SamlAssertion> = {}): SamlAssertion {
  return {
    id: '_a1',
    nameId: null,
    attributes: {},
    notBefore: null,
    notOnOrAfter: new Date(NOW.getTime() + 5 * MINUTE),
    audienceRestrictions: [['sp']],
    confirmationExpiries: [],
    ...partial,
  };
}

unit('conditions: ID and NotOnOrAfter required, window edges with two minutes of skew, subject confirmation, audience', () => {
  const at = (ms: number) => new Date(NOW.getTime() + ms);
  assert.is(conditionsProblem(assertion(), NOW, 'sp'), null);
  assert.is(conditionsProblem(assertion({ id: null }), NOW, 'sp'), 'no usable assertion ID');
  assert.is(conditionsProblem(assertion({ id: 'x'.repeat(256) }), NOW, 'sp'), 'no usable assertion ID');
  assert.is(conditionsProblem(assertion({ notOnOrAfter: null }), NOW, 'sp'), 'no NotOnOrAfter');
  assert.is(conditionsProblem(assertion({ notOnOrAfter: at(-2 * MINUTE) }), NOW, 'sp'), 'expired');
  assert.is(conditionsProblem(assertion({ notOnOrAfter: at(-2 * MINUTE + 1) }), NOW, 'sp'), null);
  assert.is(conditionsProblem(assertion({ notBefore: at(2 * MINUTE) }), NOW, 'sp'), null);
  assert.is(conditionsProblem(assertion({ notBefore: at(2 * MINUTE + 1) }), NOW, 'sp'), 'not yet valid');
  assert.is(conditionsProblem(assertion({ confirmationExpiries: [at(-3 * MINUTE)] }), NOW, 'sp'), 'subject confirmation expired');
  assert.is(conditionsProblem(assertion({ confirmationExpiries: [at(-3 * MINUTE), at(MINUTE)] }), NOW, 'sp'), null);
  assert.is(conditionsProblem(assertion({ audienceRestrictions: [] }), NOW, 'sp'), 'no audience restriction');
  assert.is(conditionsProblem(assertion({ audienceRestrictions: [['a', 'sp']] }), NOW, 'sp'), null);
  assert.is(conditionsProblem(assertion({ audienceRestrictions: [['sp'], ['other']] }), NOW, 'sp'), 'wrong audience');
  assert.is(conditionsProblem(assertion({ audienceRestrictions: [['other']] }), NOW, 'sp'), 'wrong audience');
});

unit('identity: email from NameID or attributes, names, preferred username, role', () => {
  const id = identityFrom(
    assertion({
      nameId: 'opaque-id',
      attributes: { mail: ['not-an-email', 'Kim.Ng@Uni.Example.edu'], givenname: ['Kim'], surname: ['Ng'], 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1': ['Staff'] },
    }),
  );
  assert.equal(id, { email: 'kim.ng@uni.example.edu', preferredUsername: 'kim.ng', firstName: 'Kim', lastName: 'Ng', affiliations: ['staff'] });
  assert.is(roleForNewUser(id!), 'Tutor');
  assert.is(identityFrom(assertion({ nameId: 'x@y.edu', attributes: { uid: ['XY1'] } }))!.preferredUsername, 'xy1');
  assert.is(roleForNewUser(identityFrom(assertion({ nameId: 'x@y.edu' }))!), 'Student');
  assert.is(identityFrom(assertion({ nameId: 'opaque' })), null);
  assert.is(identityFrom(assertion({ nameId: `${'a'.repeat(250)}@y.edu` })), null);
});

unit('decoding: base64 with line breaks or form-mangled plus signs; anything else throws', () => {
  const xml = '<a>?>>?</a>'; // base64 of this contains '+' and '/'
  const encoded = b64(xml);
  assert.ok(/[+/]/.test(encoded));
  assert.is(decodeSamlResponse(encoded.replace(/(.{4})/g, '$1\r\n')), xml);
  assert.is(decodeSamlResponse(encoded.replace(/\+/g, ' ')), xml);
  assert.throws(
    () => decodeSamlResponse('@@@@'),
    (e: unknown) => e instanceof SamlError,
  );
  assert.throws(
    () => decodeSamlResponse('abc'),
    (e: unknown) => e instanceof SamlError,
  );
});

unit('keys: certificates and public keys are read from PEM text, junk is not', () => {
  assert.ok(new X509Certificate(IDP.certificate).verify(new X509Certificate(IDP.certificate).publicKey));
  assert.is(idpKeysFromPem(IDP.certificate).length, 1);
  assert.equal(idpKeysFromPem(IDP.certificate), idpKeysFromPem(IDP.publicKey));
  assert.is(idpKeysFromPem(`subject=CN=idp\n${IDP.certificate}\n${ATTACKER.certificate}`).length, 2);
  assert.equal(idpKeysFromPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), []);
  assert.equal(idpKeysFromPem('nothing'), []);
});

unit.run();
