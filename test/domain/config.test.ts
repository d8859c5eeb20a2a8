import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config.ts';

const test = suite('configuration from the environment');

test('defaults: port 3000, embedded database, both halves in one process', () => {
  const c = loadConfig({});
  assert.is(c.port, 3000);
  assert.is(c.databaseUrl, undefined);
  assert.is(c.role, 'all');
  assert.is(c.adminUsername, 'admin');
  assert.is(c.adminPassword, undefined);
  assert.is(c.corsOrigins, '*');
  assert.is(c.authMethod, 'database');
  assert.is(c.overseerEnabled, false);
  assert.is(c.sessionCacheSeconds, 5);
  assert.equal(c.signInThrottle, { maxFailuresPerUser: 10, maxFailuresPerAddress: 100, windowSeconds: 900 });
  assert.is(c.trustProxy, false);
  assert.ok(c.storageRoot.endsWith('/.data/files'));
  assert.is(c.objectStorage, undefined);
});

test('STORAGE_URL: a file:// URL is the directory, an s3:// URL the bucket and prefix; STORAGE_ROOT alone works as before', () => {
  assert.is(loadConfig({ STORAGE_ROOT: '/srv/files' }).storageRoot, '/srv/files');
  const file = loadConfig({ STORAGE_URL: 'file:///srv/course%20files' });
  assert.equal([file.storageRoot, file.objectStorage], ['/srv/course files', undefined]);
  assert.equal(loadConfig({ STORAGE_URL: 's3://course-files' }).objectStorage, {
    bucket: 'course-files',
    prefix: '',
    forcePathStyle: false,
    timeoutMs: 30_000,
  });
  assert.equal(loadConfig({ STORAGE_URL: 's3://course-files/prod/files/', S3_FORCE_PATH_STYLE: 'true', S3_TIMEOUT_SECONDS: '5' }).objectStorage, {
    bucket: 'course-files',
    prefix: 'prod/files',
    forcePathStyle: true,
    timeoutMs: 5000,
  });
  for (const wrong of ['/srv/files', 'file://host/srv', 'http://bucket/x', 's3://Bad_Bucket', 's3://bucket/../x', 's3://bucket/a?b=1', 'files']) {
    assert.throws(() => loadConfig({ STORAGE_URL: wrong }), /STORAGE_URL must be file:\/\/\/absolute\/path or s3:\/\/bucket\/optional\/prefix/, wrong);
  }
  assert.throws(() => loadConfig({ STORAGE_URL: 's3://course-files', STORAGE_ROOT: '/srv/files' }), /set only one of them/);
});

test('each variable is read', () => {
  const c = loadConfig({
    PORT: '8080',
    DATABASE_URL: 'postgres://u:p@db/x',
    DATA_DIR: '/var/lib/course',
    STORAGE_ROOT: '/srv/files',
    SERVICE_ROLE: 'worker',
    ADMIN_USERNAME: 'Root',
    ADMIN_PASSWORD: 'pw',
    CORS_ORIGINS: 'https://a.edu, https://b.edu',
    AUTH_METHOD: 'saml',
    SAML_AUDIENCE: 'https://courses.example.edu/saml',
    SAML_IDP_CERT: '/etc/course/idp.pem',
    OVERSEER_ENABLED: 'true',
    SESSION_CACHE_SECONDS: '0',
    SIGNIN_MAX_FAILURES_PER_USER: '5',
    SIGNIN_MAX_FAILURES_PER_ADDRESS: '0',
    SIGNIN_THROTTLE_WINDOW_SECONDS: '60',
    TRUST_PROXY: 'true',
  });
  assert.equal(
    [c.port, c.databaseUrl, c.storageRoot, c.role, c.adminUsername, c.adminPassword, c.authMethod, c.overseerEnabled, c.sessionCacheSeconds],
    [8080, 'postgres://u:p@db/x', '/srv/files', 'worker', 'root', 'pw', 'saml', true, 0],
  );
  assert.equal(c.corsOrigins, ['https://a.edu', 'https://b.edu']);
  assert.equal(c.saml.audience, 'https://courses.example.edu/saml');
  assert.equal(c.signInThrottle, { maxFailuresPerUser: 5, maxFailuresPerAddress: 0, windowSeconds: 60 });
  assert.is(c.trustProxy, true);
  assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy, ['10.0.0.1', '10.1.0.0/16']);
  assert.is(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  assert.is(loadConfig({ DATA_DIR: '/var/lib/course' }).storageRoot, '/var/lib/course/files');
});

test('LTI_TOOL_URL: read without its trailing slash; unset by default; not http(s) stops the start', () => {
  assert.is(loadConfig({ LTI_TOOL_URL: 'https://courses.example.edu/' }).lti.toolUrl, 'https://courses.example.edu');
  assert.is(loadConfig({}).lti.toolUrl, undefined);
  assert.throws(() => loadConfig({ LTI_TOOL_URL: 'ftp://courses.example.edu' }), /LTI_TOOL_URL must be an http\(s\) URL/);
  assert.throws(() => loadConfig({ LTI_TOOL_URL: 'courses' }), /LTI_TOOL_URL must be an absolute URL/);
});

test('a wrong value stops the start with a message naming the variable', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT/);
  assert.throws(() => loadConfig({ SERVICE_ROLE: 'both' }), /SERVICE_ROLE must be one of all, api, worker/);
  assert.throws(() => loadConfig({ AUTH_METHOD: 'ldap' }), /AUTH_METHOD/);
  assert.throws(() => loadConfig({ SIGNIN_MAX_FAILURES_PER_USER: '-1' }), /SIGNIN_MAX_FAILURES_PER_USER/);
  assert.throws(() => loadConfig({ SIGNIN_MAX_FAILURES_PER_ADDRESS: 'many' }), /SIGNIN_MAX_FAILURES_PER_ADDRESS/);
  assert.throws(() => loadConfig({ SIGNIN_THROTTLE_WINDOW_SECONDS: '0' }), /SIGNIN_THROTTLE_WINDOW_SECONDS must be at least 1/);
});

test('every wrong value is named at once, one line each, so one start shows all that needs fixing', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', SERVICE_ROLE: 'both' }),
    (error: Error) => error.message === 'PORT must be a non-negative integer, got "eighty"\nSERVICE_ROLE must be one of all, api, worker, got "both"',
  );
});

test('an empty variable counts as unset', () => {
  const c = loadConfig({ PORT: '', SERVICE_ROLE: '', DATA_DIR: '', OVERSEER_ENABLED: '', TRUST_PROXY: '' });
  assert.equal([c.port, c.role, c.dataDir, c.overseerEnabled, c.trustProxy], [3000, 'all', loadConfig({}).dataDir, false, false]);
});

test('single sign-on refuses to start without an audience or a certificate, and says why', () => {
  assert.throws(
    () => loadConfig({ AUTH_METHOD: 'saml', SAML_IDP_CERT: '/etc/idp.pem' }),
    /^AUTH_METHOD=saml needs SAML_AUDIENCE: set it to this service's entity id, which every SAML assertion must name as its audience$/,
  );
  assert.throws(() => loadConfig({ AUTH_METHOD: 'saml', SAML_AUDIENCE: 'https://sp' }), /AUTH_METHOD=saml needs SAML_IDP_CERT/);
  // Password sign-in needs neither.
  assert.is(loadConfig({ AUTH_METHOD: 'database' }).saml.audience, undefined);
});

test.run();
