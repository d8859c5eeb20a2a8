// `npm run build:client` (and `npm run pack:client`, which packs what it builds): the client
// package, course-service/client (docs/client.md), in dist/client-package/: a package.json of its
// own (the client's one dependency and its peers, never the server's), client/index.js, one ES
// module bundled by esbuild from src/client/ (@trpc/client, @trpc/server and openapi-fetch stay
// imports), and client/index.d.ts, its declarations bundled by rollup-plugin-dts into one file. The router's type is the one part of
// the server a client needs; scripts/lib/client-router-type.ts writes it out in plain TypeScript,
// so the declarations import nothing of the server (zod, MikroORM, Fastify) and only the packages
// a consumer installs: @trpc/client, @trpc/server, openapi-fetch.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { clientRouterTypeSource } from './lib/client-router-type.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(ROOT, 'src/client');
const PACKAGE = join(ROOT, 'dist/client-package');
const OUT = join(PACKAGE, 'client');
const STAGING = join(ROOT, 'dist/client-types');
const EXTERNAL = [/^@trpc\//, /^openapi-fetch$/];
const external = (id: string) => EXTERNAL.some((pattern) => pattern.test(id));

/**
 * The client's own manifest: named like the service, so a consumer imports `course-service/client`
 * as inside this repository, with the versions this project pins. @trpc/client and @trpc/server
 * are peers (the consumer's own tRPC, one copy); openapi-fetch comes with it.
 */
function manifest(): Record<string, unknown> {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
  return {
    name: 'course-service',
    version: root.version,
    description: 'Typed TypeScript client of the course service: tRPC procedures, subscriptions and REST in one session.',
    type: 'module',
    exports: { './client': { types: './client/index.d.ts', import: './client/index.js' }, './package.json': './package.json' },
    files: ['client/', 'README.md'],
    engines: { node: '>=20' },
    dependencies: { 'openapi-fetch': root.dependencies['openapi-fetch'] },
    peerDependencies: { '@trpc/client': `^${root.dependencies['@trpc/client']}`, '@trpc/server': `^${root.dependencies['@trpc/server']}` },
  };
}

export async function buildClient(): Promise<void> {
  rmSync(PACKAGE, { recursive: true, force: true });
  rmSync(STAGING, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  mkdirSync(STAGING, { recursive: true });

  await build({
    entryPoints: [join(SOURCE, 'index.ts')],
    outfile: join(OUT, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    external: ['@trpc/*', 'openapi-fetch'],
    legalComments: 'none',
    logLevel: 'warning',
  });

  // The client's sources with router.ts (the server's AppRouter) replaced by the written-out type.
  for (const file of readdirSync(SOURCE)) if (file.endsWith('.ts') && file !== 'router.ts') copyFileSync(join(SOURCE, file), join(STAGING, file));
  writeFileSync(join(STAGING, 'router.ts'), clientRouterTypeSource());
  const bundle = await rollup({
    input: join(STAGING, 'index.ts'),
    external,
    plugins: [
      dts({
        compilerOptions: {
          target: 99,
          module: 199,
          moduleResolution: 99,
          strict: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          types: [],
          lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        },
      }),
    ],
  });
  await bundle.write({ file: join(OUT, 'index.d.ts'), format: 'es' });
  await bundle.close();
  rmSync(STAGING, { recursive: true, force: true });
  writeFileSync(join(PACKAGE, 'package.json'), `${JSON.stringify(manifest(), null, 2)}\n`);
  copyFileSync(join(ROOT, 'docs/client.md'), join(PACKAGE, 'README.md'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildClient();
  // stderr: `npm pack --json` (after this in pack:client) answers on stdout.
  for (const file of readdirSync(OUT)) console.error(`dist/client-package/client/${file}: ${statSync(join(OUT, file)).size} bytes`);
}
