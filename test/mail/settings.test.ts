// The e-mail settings read from the environment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config.ts';

const test = suite('mail: configuration');

test('without SMTP_URL nothing is sent; the sender defaults to the product name at the web client host', () => {
  assert.equal(loadConfig({}).mail, { smtpUrl: undefined, from: '"Course Service" <no-reply@localhost>', webUrl: undefined });
  assert.equal(loadConfig({ EXTERNAL_NAME: 'Ontrack', WEB_CLIENT_URL: 'https://ontrack.example.edu/' }).mail, {
    smtpUrl: undefined,
    from: '"Ontrack" <no-reply@ontrack.example.edu>',
    webUrl: 'https://ontrack.example.edu',
  });
});

test('SMTP_URL and MAIL_FROM are taken as given; a WEB_CLIENT_URL that is no URL stops the start', () => {
  const mail = loadConfig({ SMTP_URL: 'smtp://mail.example.edu:25', MAIL_FROM: 'Teaching <teaching@example.edu>' }).mail;
  assert.equal([mail.smtpUrl, mail.from], ['smtp://mail.example.edu:25', 'Teaching <teaching@example.edu>']);
  assert.throws(() => loadConfig({ WEB_CLIENT_URL: 'courses' }), /WEB_CLIENT_URL must be an absolute URL/);
});

test.run();
