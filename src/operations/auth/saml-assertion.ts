import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DOMParser, onWarningStopParsing, type Document, type Element, type Node } from '@xmldom/xmldom';
import { pemCertificates, SignedXml, toPem } from 'xml-crypto';
import type { SystemRole } from '../../../schema/enums.ts';
import { systemRoleForNewUser } from '../../policy/index.ts';

// Single sign-on with a SAML 2.0 Response (HTTP-POST binding) from the institution's identity
// provider. The identity is read only from XML that a verified signature covers: the document as
// received is used to find the signatures and never to read who the user is, so moving a signed
// assertion around or adding unsigned ones (signature wrapping) cannot change the identity.

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** Clocks of the identity provider and this service may disagree by this much. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** A SAML response is a few kilobytes; anything far larger is not one. */
const MAX_RESPONSE_CHARS = 1_000_000;
/** Longest value the users table stores. */
const MAX_FIELD = 255;

/** The response is not a valid, signed, current SAML response for this service. */
export class SamlError extends Error {}
/** The service has no usable identity-provider certificate. */
export class SamlConfigError extends Error {}

/** What a verified assertion says, before deciding who the user is. */
export interface SamlAssertion {
  /** The assertion's ID attribute: what replays are recognised by. */
  id: string | null;
  nameId: string | null;
  /** Values by attribute Name and by FriendlyName, both lower-cased. */
  attributes: Record<string, string[]>;
  notBefore: Date | null;
  notOnOrAfter: Date | null;
  /** One list of audiences per AudienceRestriction; each restriction must admit this service. */
  audienceRestrictions: string[][];
  /** NotOnOrAfter of each bearer subject confirmation that carries one. */
  confirmationExpiries: Date[];
}

export interface SamlIdentity {
  /** The only thing an existing account is found by. */
  email: string;
  /** What a new account's username is made from (made unique); never used to find an account. */
  preferredUsername: string;
  firstName: string;
  lastName: string;
  affiliations: string[];
}

// ---------------------------------------------------------------------------------------------
// Configuration: the identity provider's certificate(s)

/**
 * The public keys to trust, from `SAML_IDP_CERT`: PEM text (certificates or public keys, several
 * for key rollover), a path to a PEM file, or a certificate's bare base64 as IdP metadata shows it.
 * Environment variables often carry PEM with literal `\n`; those are read as line breaks.
 */
export async function loadIdpKeys(setting: string): Promise<string[]> {
  const value = setting.replace(/\\n/g, '\n').trim();
  let text = value;
  if (!value.includes('-----BEGIN')) {
    try {
      text = await readFile(value, 'utf8');
    } catch {
      text = /^[A-Za-z0-9+/=\s]{64,}$/.test(value) ? (safe(() => toPem(value, 'CERTIFICATE')) ?? '') : '';
    }
  }
  const keys = idpKeysFromPem(text);
  if (keys.length === 0) throw new SamlConfigError('SAML_IDP_CERT holds no usable certificate or public key');
  return keys;
}

/** Each certificate or public key in PEM text, as a public-key PEM that node:crypto verifies with. */
export function idpKeysFromPem(text: string): string[] {
  const sources = [
    ...(safe(() => pemCertificates(text)) ?? []).map((b64) => safe(() => toPem(b64, 'CERTIFICATE'))),
    ...(text.match(/-----BEGIN (?:RSA )?PUBLIC KEY-----[\s\S]+?-----END (?:RSA )?PUBLIC KEY-----/g) ?? []),
  ];
  const keys: string[] = [];
  for (const source of sources) {
    const key = source && safe(() => createPublicKey(source).export({ type: 'spki', format: 'pem' }).toString());
    if (key && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding and parsing

/** The XML text of a base64 `SAMLResponse`. */
export function decodeSamlResponse(value: string): string {
  // Line-wrapped base64 is common; a form posted without encoding turns '+' into ' '.
  const compact = value.replace(/[\r\n\t]/g, '').replace(/ /g, '+');
  if (compact.length === 0 || compact.length > MAX_RESPONSE_CHARS) throw new SamlError('empty or oversized response');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new SamlError('not base64');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'));
  } catch {
    throw new SamlError('not UTF-8 text');
  }
}

/** Parses XML, refusing anything that is not a well-formed document without a DTD. */
export function parseXml(xml: string): Document {
  let doc: Document;
  try {
    doc = new DOMParser({ onError: onWarningStopParsing, locator: false }).parseFromString(xml, 'text/xml');
  } catch {
    throw new SamlError('not well-formed XML');
  }
  if (!doc.documentElement) throw new SamlError('no document element');
  if (doc.doctype) throw new SamlError('a document type declaration is not allowed');
  return doc;
}

function isElement(node: Node | null): node is Element {
  return node !== null && node.nodeType === 1;
}

function is(el: Element, ns: string, name: string): boolean {
  return el.namespaceURI === ns && el.localName === name;
}

/** Child elements (direct children only) with this namespace and local name. */
function children(el: Element, ns: string, name: string): Element[] {
  const found: Element[] = [];
  for (let node = el.firstChild; node; node = node.nextSibling) {
    if (isElement(node) && is(node, ns, name)) found.push(node);
  }
  return found;
}

/** At most one such child; a second is a malformed response. */
function optionalChild(el: Element, ns: string, name: string): Element | null {
  const found = children(el, ns, name);
  if (found.length > 1) throw new SamlError(`more than one ${name}`);
  return found[0] ?? null;
}

function text(el: Element): string {
  return (el.textContent ?? '').trim();
}

const XS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function dateAttribute(el: Element, name: string): Date | null {
  if (!el.hasAttribute(name)) return null;
  const value = (el.getAttribute(name) ?? '').trim();
  const date = XS_DATE_TIME.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new SamlError(`${name} is not a date-time`);
  return date;
}

// ---------------------------------------------------------------------------------------------
// Pure reading and checking of a verified assertion

/** Reads an Assertion element (one that a verified signature covers) into plain data. */
export function readAssertion(assertion: Element): SamlAssertion {
  if (!is(assertion, ASSERTION_NS, 'Assertion')) throw new SamlError('not an assertion');
  const subject = optionalChild(assertion, ASSERTION_NS, 'Subject');
  const nameIdEl = subject ? optionalChild(subject, ASSERTION_NS, 'NameID') : null;
  const confirmationExpiries: Date[] = [];
  for (const confirmation of subject ? children(subject, ASSERTION_NS, 'SubjectConfirmation') : []) {
    if (confirmation.getAttribute('Method') !== BEARER) continue;
    const data = optionalChild(confirmation, ASSERTION_NS, 'SubjectConfirmationData');
    const expiry = data ? dateAttribute(data, 'NotOnOrAfter') : null;
    if (expiry) confirmationExpiries.push(expiry);
  }

  const conditions = optionalChild(assertion, ASSERTION_NS, 'Conditions');
  const audienceRestrictions = conditions
    ? children(conditions, ASSERTION_NS, 'AudienceRestriction').map((r) => children(r, ASSERTION_NS, 'Audience').map(text))
    : [];

  const attributes: Record<string, string[]> = {};
  for (const statement of children(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of children(statement, ASSERTION_NS, 'Attribute')) {
      const values = children(attribute, ASSERTION_NS, 'AttributeValue')
        .map(text)
        .filter((v) => v !== '');
      for (const key of [attribute.getAttribute('Name'), attribute.getAttribute('FriendlyName')]) {
        if (!key) continue;
        const name = key.trim().toLowerCase();
        attributes[name] = [...(attributes[name] ?? []), ...values];
      }
    }
  }

  return {
    id: assertion.getAttribute('ID')?.trim() || null,
    nameId: nameIdEl ? text(nameIdEl) || null : null,
    attributes,
    notBefore: conditions ? dateAttribute(conditions, 'NotBefore') : null,
    notOnOrAfter: conditions ? dateAttribute(conditions, 'NotOnOrAfter') : null,
    audienceRestrictions,
    confirmationExpiries,
  };
}

/**
 * Why the assertion may not be used at `now`, or null when it may: an ID and a NotOnOrAfter
 * (without an end, a replayed assertion could never be told from a fresh one for long enough),
 * validity window (with CLOCK_SKEW_MS either way), bearer confirmation expiry, and that there is
 * an AudienceRestriction and every one names this service's audience.
 */
export function conditionsProblem(assertion: SamlAssertion, now: Date, audience: string): string | null {
  const t = now.getTime();
  if (!assertion.id || assertion.id.length > MAX_FIELD) return 'no usable assertion ID';
  if (!assertion.notOnOrAfter) return 'no NotOnOrAfter';
  if (assertion.notBefore && t + CLOCK_SKEW_MS < assertion.notBefore.getTime()) return 'not yet valid';
  if (t - CLOCK_SKEW_MS >= assertion.notOnOrAfter.getTime()) return 'expired';
  if (assertion.confirmationExpiries.length > 0 && assertion.confirmationExpiries.every((e) => t - CLOCK_SKEW_MS >= e.getTime())) {
    return 'subject confirmation expired';
  }
  if (assertion.audienceRestrictions.length === 0) return 'no audience restriction';
  if (!assertion.audienceRestrictions.every((list) => list.includes(audience))) return 'wrong audience';
  return null;
}

const ATTR = {
  email: ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  firstName: ['givenname', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'],
  lastName: ['sn', 'surname', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'],
  username: ['uid', 'urn:oid:0.9.2342.19200300.100.1.1'],
  affiliation: ['edupersonaffiliation', 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1'],
};

// The users table's own rule for an email address.
const EMAIL = /^[^@\s]+@([-a-z0-9]+\.)+[a-z]{2,}$/i;

function values(assertion: SamlAssertion, names: string[]): string[] {
  return names.flatMap((name) => assertion.attributes[name] ?? []);
}

function firstValue(assertion: SamlAssertion, names: string[]): string | undefined {
  return values(assertion, names)[0];
}

/**
 * Who the assertion names: the email from NameID when it is an address, else from the email
 * attributes; names from givenName/sn (the email's local part and "Unknown" when absent, since
 * names may not be blank); preferred username from uid, else the email's local part. Null when there is
 * no usable email or a value is too long to store.
 */
export function identityFrom(assertion: SamlAssertion): SamlIdentity | null {
  const candidates = [assertion.nameId ?? '', ...values(assertion, ATTR.email)];
  const email = candidates.find((c) => EMAIL.test(c))?.toLowerCase();
  if (!email) return null;
  const localPart = email.slice(0, email.lastIndexOf('@'));
  const identity: SamlIdentity = {
    email,
    preferredUsername: (firstValue(assertion, ATTR.username) ?? localPart).toLowerCase(),
    firstName: firstValue(assertion, ATTR.firstName) ?? localPart,
    lastName: firstValue(assertion, ATTR.lastName) ?? 'Unknown',
    affiliations: values(assertion, ATTR.affiliation).map((a) => a.toLowerCase()),
  };
  const fields = [identity.email, identity.preferredUsername, identity.firstName, identity.lastName];
  if (fields.some((f) => f.length > MAX_FIELD)) return null;
  return identity;
}

/** System role of an account created at first sign-in: staff and faculty teach, everyone else studies. */
export function roleForNewUser(identity: SamlIdentity): SystemRole {
  return systemRoleForNewUser(identity.affiliations.some((a) => a === 'staff' || a === 'faculty'));
}

// ---------------------------------------------------------------------------------------------
// Signature verification

function requireSuccess(response: Element): void {
  const status = optionalChild(response, PROTOCOL_NS, 'Status');
  if (!status) return;
  const code = optionalChild(status, PROTOCOL_NS, 'StatusCode');
  if (!code || code.getAttribute('Value') !== STATUS_SUCCESS) throw new SamlError('status is not Success');
}

// SHA-1 collisions can be made; a signature or digest using it proves nothing.
const SHA1_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const SHA1_DIGEST = 'http://www.w3.org/2000/09/xmldsig#sha1';

/** The canonical XML that this signature covers, when it verifies with one of the keys. */
function verifiedReference(xml: string, signature: Element, keys: string[]): string | null {
  for (const key of keys) {
    // KeyInfo in the message is ignored: only the configured keys are trusted.
    const verifier = new SignedXml({ publicCert: key, getCertFromKeyInfo: () => null });
    // Without them in its tables, xml-crypto refuses a signature that names them.
    delete (verifier.SignatureAlgorithms as Record<string, unknown>)[SHA1_SIGNATURE];
    delete (verifier.HashAlgorithms as Record<string, unknown>)[SHA1_DIGEST];
    try {
      // xml-crypto types its nodes with the DOM's Node; xmldom's nodes are what it reads at runtime.
      verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
      if (!verifier.checkSignature(xml)) continue;
    } catch {
      continue;
    }
    const references = verifier.getSignedReferences();
    // A signature over several things is not how an identity provider signs a response.
    return references.length === 1 ? references[0] : null;
  }
  return null;
}

/**
 * Verifies the signatures of a SAML Response and returns the one assertion they cover: an
 * Assertion that is itself signed, or the only Assertion inside a signed Response. The document
 * must hold exactly one assertion and every signature in it must verify; the identity is then
 * read from the signed XML alone, never from the document as received.
 */
export function verifiedAssertion(xml: string, keys: string[]): Element {
  const doc = parseXml(xml);
  const root = doc.documentElement!;
  if (!is(root, PROTOCOL_NS, 'Response')) throw new SamlError('not a SAML Response');
  requireSuccess(root); // unsigned here, so it can only ever refuse

  // An identity provider sends one assertion. Any other, wherever it sits, can only be an
  // attempt to have an unsigned one read instead of the signed one, so it is refused outright.
  if (doc.getElementsByTagNameNS(ASSERTION_NS, 'Assertion').length !== 1) throw new SamlError('not exactly one assertion');
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature'));
  if (signatures.length === 0) throw new SamlError('unsigned');
  const signed: Element[] = [];
  for (const signature of signatures) {
    const reference = verifiedReference(xml, signature, keys);
    if (reference === null) throw new SamlError('a signature does not verify');
    const element = parseXml(reference).documentElement!;
    if (is(element, ASSERTION_NS, 'Assertion')) {
      signed.push(element);
    } else if (is(element, PROTOCOL_NS, 'Response')) {
      requireSuccess(element);
      const inner = children(element, ASSERTION_NS, 'Assertion');
      if (inner.length !== 1) throw new SamlError('a signed response must hold exactly one assertion');
      signed.push(inner[0]);
    } else {
      throw new SamlError('the signature covers neither the response nor an assertion');
    }
  }
  // Response and assertion both signed name the same assertion; two different ones are ambiguous.
  const ids = new Set(signed.map((a) => a.getAttribute('ID') ?? ''));
  if (ids.size !== 1) throw new SamlError('more than one signed assertion');
  return signed[0];
}

/** A verified, current assertion: who it names, and what recognises a replay of it until when. */
export interface VerifiedSaml {
  identity: SamlIdentity;
  assertionId: string;
  /** After this the assertion is refused as expired anyway, so a replay record may be dropped. */
  usableUntil: Date;
}

/**
 * The whole check, without I/O: decode, verify, read, check conditions at `now`, and name the
 * user. Any failure is a SamlError. Refusing a replay needs the database: see `assertionId`.
 */
export function verifySamlResponse(samlResponse: string, options: { keys: string[]; now: Date; audience: string }): VerifiedSaml {
  try {
    const assertion = readAssertion(verifiedAssertion(decodeSamlResponse(samlResponse), options.keys));
    const problem = conditionsProblem(assertion, options.now, options.audience);
    if (problem) throw new SamlError(problem);
    const identity = identityFrom(assertion);
    if (!identity) throw new SamlError('the assertion names no usable email address');
    return {
      identity,
      assertionId: assertion.id!,
      usableUntil: new Date(assertion.notOnOrAfter!.getTime() + CLOCK_SKEW_MS),
    };
  } catch (error) {
    throw error instanceof SamlError ? error : new SamlError(error instanceof Error ? error.message : String(error));
  }
}
