import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManifestError, normalizePackagePath, packagePath, readManifest } from '../../src/domain/scorm-manifest.ts';
import { SCORM_BRIDGE_MARKUP, assetContentType, bridgeOffset, injectBridge, isHtmlAsset } from '../../src/domain/scorm-assets.ts';
import { manifest12, manifest2004 } from '../support/scorm-packages.ts';

const test = suite('domain: SCORM manifests and assets (docs/online-tests.md)');

const refused = (xml: string): string => {
  try {
    readManifest(xml);
  } catch (error) {
    assert.instance(error, ManifestError);
    return (error as Error).message;
  }
  throw new Error('the manifest was accepted');
};

test('a SCORM 2004 manifest: its version and the default organization’s first launchable item', () => {
  assert.equal(readManifest(manifest2004('content/start.html?mode=quiz#top')), {
    version: '2004',
    launchPath: 'content/start.html',
    launchSuffix: '?mode=quiz#top',
  });
  assert.equal(readManifest(manifest2004()).launchPath, 'index.html');
});

test('a SCORM 1.2 manifest (schemaversion 1.2, lower-case adlcp:scormtype)', () => {
  assert.equal(readManifest(manifest12('player.htm')), { version: '1.2', launchPath: 'player.htm', launchSuffix: '' });
});

test('the version also comes from "CAM 1.3" or, without a schemaversion, from the ADL namespace', () => {
  assert.is(readManifest(manifest2004().replace('2004 4th Edition', 'CAM 1.3')).version, '2004');
  assert.is(readManifest(manifest2004().replace(/<metadata>.*<\/metadata>/, '')).version, '2004');
  assert.is(readManifest(manifest12().replace(/<metadata>.*<\/metadata>/, '')).version, '1.2');
  assert.match(refused('<manifest><resources><resource identifier="r" scormType="sco" href="a.html"/></resources></manifest>'), 'SCORM version');
});

test('the default organization wins over the first; items without identifierref are skipped; nested items count', () => {
  const xml = `<manifest xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"><metadata><schemaversion>2004 3rd Edition</schemaversion></metadata>
    <organizations default="second">
      <organization identifier="first"><item identifier="a" identifierref="ra"/></organization>
      <organization identifier="second"><item identifier="folder"><item identifier="b" identifierref="rb"/></item></organization>
    </organizations>
    <resources><resource identifier="ra" href="a.html"/><resource identifier="rb" href="b/b.html"/></resources></manifest>`;
  assert.is(readManifest(xml).launchPath, 'b/b.html');
});

test('without organizations, the first resource marked as a SCO; xml:base is applied and hrefs decoded', () => {
  const xml = `<manifest xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"><organizations/>
    <resources xml:base="course/"><resource identifier="asset" adlcp:scormtype="asset" href="x.css"/>
    <resource identifier="r" adlcp:scormtype="sco" xml:base="unit1/" href="my%20page.html"/></resources></manifest>`;
  assert.equal(readManifest(xml), { version: '1.2', launchPath: 'course/unit1/my page.html', launchSuffix: '' });
});

test('refusals say what is wrong: not XML, not a manifest, no SCO, a launch outside the package', () => {
  assert.match(refused('<manifest><a></manifest>'), 'not well-formed XML');
  assert.match(refused('this is not xml'), 'not well-formed XML');
  assert.match(refused(''), 'not well-formed XML');
  assert.match(refused('<html/>'), 'root element is not <manifest>');
  assert.match(refused(manifest2004().replace(/<resource identifier="r1"[\s\S]*?<\/resource>/, '')), 'no launchable SCO');
  for (const href of ['../escape.html', '/etc/passwd', 'http://evil.example/x.html', 'javascript:alert(1)', 'a/../../b.html']) {
    assert.match(refused(manifest2004(href)), 'not a file inside the package', href);
  }
});

test('a manifest with a DOCTYPE and entities does not reach outside (no external entity is fetched)', () => {
  const xml = `<?xml version="1.0"?><!DOCTYPE manifest [<!ENTITY x SYSTEM "file:///etc/passwd">]>${manifest2004().replace(/^<\?xml[^>]*>/, '')}`;
  // Either accepted without the entity, or refused as XML; never the file's content.
  try {
    assert.is(readManifest(xml).launchPath, 'index.html');
  } catch (error) {
    assert.instance(error, ManifestError);
  }
});

test('package paths: normalised, never above the root', () => {
  assert.is(normalizePackagePath('a/./b//c.js'), 'a/b/c.js');
  assert.is(normalizePackagePath('a/../b.js'), 'b.js');
  assert.is(normalizePackagePath('../b.js'), null);
  assert.is(normalizePackagePath('a\\..\\..\\b'), null);
  assert.is(normalizePackagePath(''), null);
  assert.is(normalizePackagePath('a\0b'), null);
  assert.equal(packagePath('x.html?a=1'), { path: 'x.html', suffix: '?a=1' });
  assert.is(packagePath('%E0%A4%A'), null);
});

test('the bridge goes at the start of <head>, else after <html> or the doctype, else first; once', () => {
  assert.is(
    injectBridge('<!DOCTYPE html><html><head><title>t</title></head></html>'),
    `<!DOCTYPE html><html><head>${SCORM_BRIDGE_MARKUP}<title>t</title></head></html>`,
  );
  assert.is(injectBridge('<html lang="en"><HEAD data-x="1"><title>t</title>'), `<html lang="en"><HEAD data-x="1">${SCORM_BRIDGE_MARKUP}<title>t</title>`);
  assert.is(
    injectBridge('<!-- <head> in a comment --><html><body>x</body></html>'),
    `<!-- <head> in a comment --><html>${SCORM_BRIDGE_MARKUP}<body>x</body></html>`,
  );
  assert.is(injectBridge('<!doctype html><p>bare'), `<!doctype html>${SCORM_BRIDGE_MARKUP}<p>bare`);
  assert.is(injectBridge('<p>fragment</p>'), `${SCORM_BRIDGE_MARKUP}<p>fragment</p>`);
  assert.is(injectBridge('<header>not a head</header>'), `${SCORM_BRIDGE_MARKUP}<header>not a head</header>`);
  // A streamed prefix that may still be cut before its <head> waits for more.
  assert.is(bridgeOffset('<!DOCTYPE html><html><he', false), null);
  assert.is(bridgeOffset('<!DOCTYPE html><html><head>', false), '<!DOCTYPE html><html><head>'.length);
  // A large file with no <head> costs one pass.
  const big = `<html>${'<p>x</p>'.repeat(20_000)}`;
  assert.is(bridgeOffset(big, false), '<html>'.length);
});

test('content types by extension; HTML is the only kind that gets the bridge', () => {
  assert.is(assetContentType('a/b/index.HTML'), 'text/html; charset=utf-8');
  assert.is(assetContentType('quiz.js'), 'text/javascript; charset=utf-8');
  assert.is(assetContentType('data.json'), 'application/json');
  assert.is(assetContentType('media/logo.png'), 'image/png');
  assert.is(assetContentType('noextension'), 'application/octet-stream');
  assert.is(assetContentType('.hidden'), 'application/octet-stream');
  assert.ok(isHtmlAsset('x.htm'));
  assert.not.ok(isHtmlAsset('x.js'));
});

test.run();
