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
  assert.ok(c.storageRoot.endsWith('/.data/files'));
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
    OVERSEER_ENABLED: 'true',
    SESSION_CACHE_SECONDS: '0',
  });
  assert.equal(
    [c.port, c.databaseUrl, c.storageRoot, c.role, c.adminUsername, c.adminPassword, c.authMethod, c.overseerEnabled, c.sessionCacheSeconds],
    [8080, 'postgres://u:p@db/x', '/srv/files', 'worker', 'root', 'pw', 'saml', true, 0],
  );
  assert.equal(c.corsOrigins, ['https://a.edu', 'https://b.edu']);
  assert.is(loadConfig({ DATA_DIR: '/var/lib/course' }).storageRoot, '/var/lib/course/files');
});

test('a wrong value stops the start with a message naming the variable', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT/);
  assert.throws(() => loadConfig({ SERVICE_ROLE: 'both' }), /SERVICE_ROLE must be one of all, api, worker/);
  assert.throws(() => loadConfig({ AUTH_METHOD: 'ldap' }), /AUTH_METHOD/);
});

test.run();
