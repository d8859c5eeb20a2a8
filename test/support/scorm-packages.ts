// SCORM packages for tests: a manifest and the files it names, zipped with yazl (src/lib/zip.ts);
// test/support/zips.ts's rawZip writes the hostile ones.
import { zipToBuffer } from '../../src/lib/zip.ts';

/** A SCORM 2004 manifest launching `href` (resource `r1`, in organization `o1`). */
export function manifest2004(href = 'index.html', extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test-package" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:adlseq="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="o1">
    <organization identifier="o1"><title>Test</title>
      <item identifier="i1" identifierref="r1"><title>Quiz</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="${href}"><file href="${href}"/></resource>
    ${extra}
  </resources>
</manifest>`;
}

/** A SCORM 1.2 manifest launching `href`. */
export function manifest12(href = 'index.html'): string {
  return `<?xml version="1.0"?>
<manifest identifier="m12" version="1.1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><item identifier="i" identifierref="r"/></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="${href}"/></resources>
</manifest>`;
}

export const PACKAGE_PAGE = '<!DOCTYPE html><html><head><title>Quiz</title></head><body><script src="quiz.js"></script></body></html>';

/** A small valid SCORM 2004 package: manifest, index.html, quiz.js, a data.json and a nested image. */
export function scormPackage(files: Record<string, string | Buffer> = {}, manifest = manifest2004()): Promise<Buffer> {
  const all: Record<string, string | Buffer> = {
    'imsmanifest.xml': manifest,
    'index.html': PACKAGE_PAGE,
    'quiz.js': 'window.quizLoaded = true;',
    'data.json': '{"questions":3}',
    'media/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    ...files,
  };
  return zipToBuffer(Object.entries(all).map(([name, value]) => ({ name, data: Buffer.isBuffer(value) ? value : Buffer.from(value) })));
}
