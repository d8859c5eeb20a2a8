// What a SCORM package's imsmanifest.xml says, read on upload (docs/online-tests.md, "Packages"):
// which SCORM version it is and which file launches it. Pure: the manifest's text in, the facts or
// the reason it is unusable out. The original never reads the manifest and always launches
// index.html; a package that launches anything else then fails in the student's browser.
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';
import type { ScormVersion } from './vocabulary.ts';

/** Why a manifest is unusable; the message is the 400's. */
export class ManifestError extends Error {}

export interface ManifestFacts {
  version: ScormVersion;
  /** The launchable SCO's file, as a path inside the package (decoded, no query or fragment). */
  launchPath: string;
  /** The href's query and fragment (`?a=1#x`), kept for the launch; '' when none. */
  launchSuffix: string;
}

const ELEMENT_NODE = 1;

function children(parent: Element, localName: string): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === ELEMENT_NODE && (n as Element).localName === localName) out.push(n as Element);
  }
  return out;
}

/** Every descendant element named `localName`, in document order (any namespace). */
function descendants(parent: Element, localName: string): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== ELEMENT_NODE) continue;
      if ((n as Element).localName === localName) out.push(n as Element);
      walk(n as Element);
    }
  };
  walk(parent);
  return out;
}

/** An attribute by its local name, whatever its prefix (`adlcp:scormType`, `scormtype`). */
function attribute(el: Element, ...localNames: string[]): string | null {
  const wanted = localNames.map((n) => n.toLowerCase());
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (wanted.includes((a.localName ?? a.name).toLowerCase())) return a.value;
  }
  return null;
}

/** Every namespace URI the document declares (xmlns and xmlns:*), anywhere. */
function namespaces(root: Element): string[] {
  const out: string[] = [];
  const walk = (el: Element) => {
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i)!;
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) out.push(a.value);
    }
    for (let n: Node | null = el.firstChild; n; n = n.nextSibling) if (n.nodeType === ELEMENT_NODE) walk(n as Element);
  };
  walk(root);
  return out;
}

/**
 * The SCORM version: `schemaversion` "2004 3rd Edition"/"CAM 1.3" → 2004 and "1.2" → 1.2; without
 * one, the ADL namespaces (adlcp_v1p3 → 2004, adlcp_rootv1p2 → 1.2).
 */
export function scormVersionOf(root: Element): ScormVersion | null {
  const declared = descendants(root, 'schemaversion')[0]?.textContent?.trim().toLowerCase() ?? '';
  if (declared.startsWith('2004') || declared === 'cam 1.3') return '2004';
  if (declared === '1.2') return '1.2';
  const uris = namespaces(root).map((u) => u.toLowerCase());
  if (uris.some((u) => u.includes('adlcp_v1p3'))) return '2004';
  if (uris.some((u) => u.includes('adlcp_rootv1p2'))) return '1.2';
  return null;
}

/**
 * The launchable resource: the default organization's (else the first one's) first item that
 * names a resource, in document order; failing that, the first resource marked as a SCO.
 */
function launchResource(root: Element): Element | null {
  const resources = children(root, 'resources').flatMap((r) => children(r, 'resource'));
  const byId = new Map(resources.map((r) => [r.getAttribute('identifier') ?? '', r]));
  const organizations = children(root, 'organizations')[0];
  if (organizations) {
    const all = children(organizations, 'organization');
    const chosen = all.find((o) => o.getAttribute('identifier') === organizations.getAttribute('default')) ?? all[0];
    for (const item of chosen ? descendants(chosen, 'item') : []) {
      const ref = item.getAttribute('identifierref');
      if (!ref) continue;
      const resource = byId.get(ref);
      if (resource?.getAttribute('href')) return resource;
    }
  }
  return resources.find((r) => attribute(r, 'scormType', 'scormtype')?.trim().toLowerCase() === 'sco' && r.getAttribute('href')) ?? null;
}

/**
 * A path inside a package as its zip names entries: `/`-separated, `.` and empty segments gone,
 * `..` applied. Null when it climbs above the package's root or holds a NUL.
 */
export function normalizePackagePath(path: string): string | null {
  if (path.includes('\0')) return null;
  const parts: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
      continue;
    }
    parts.push(segment);
  }
  return parts.length === 0 ? null : parts.join('/');
}

/**
 * The path inside the package an href names, resolved against the `xml:base`s above it, decoded,
 * and the query or fragment it carries. Null when it leaves the package (an absolute URL or
 * path, or `..` above the root).
 */
export function packagePath(href: string, bases: string[] = []): { path: string; suffix: string } | null {
  const cut = href.search(/[?#]/);
  const suffix = cut === -1 ? '' : href.slice(cut);
  const joined = [...bases, cut === -1 ? href : href.slice(0, cut)].filter((s) => s !== '').join('/');
  if (/^[a-z][a-z0-9+.-]*:/i.test(joined) || joined.startsWith('/') || joined.startsWith('\\')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(joined);
  } catch {
    return null;
  }
  const path = normalizePackagePath(decoded);
  return path === null ? null : { path, suffix };
}

/** The facts of a manifest, or a ManifestError saying what is wrong with it. */
export function readManifest(xml: string): ManifestFacts {
  let root: Element | null = null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new ManifestError(message);
      },
    }).parseFromString(xml, 'text/xml');
    root = doc.documentElement;
  } catch (error) {
    // xmldom wraps the parser's words ("Reporting fatalError … caused Error: <words>"): keep the words.
    const words = (error as Error).message.split('\n')[0]!.replace(/^.*caused (?:\w*Error: )?/, '');
    throw new ManifestError(`imsmanifest.xml is not well-formed XML (${words})`);
  }
  if (root?.localName !== 'manifest') throw new ManifestError('imsmanifest.xml is not a manifest: its root element is not <manifest>');
  const version = scormVersionOf(root);
  if (!version) {
    throw new ManifestError('imsmanifest.xml does not say its SCORM version: no <schemaversion> of 1.2 or 2004, nor an ADL namespace');
  }
  const resource = launchResource(root);
  if (!resource) {
    throw new ManifestError('imsmanifest.xml names no launchable SCO: no organization item points to a resource with an href, and no resource is a SCO');
  }
  const href = resource.getAttribute('href')!.trim();
  const bases = [resource.parentNode as Element, resource].map((el) => el.getAttribute('xml:base') ?? '');
  const launch = packagePath(href, bases);
  if (!launch) throw new ManifestError(`imsmanifest.xml launches ${JSON.stringify(href)}, which is not a file inside the package`);
  return { version, launchPath: launch.path, launchSuffix: launch.suffix };
}
