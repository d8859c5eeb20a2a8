// `npm run build:client` (and `npm pack`'s prepack): the client package, course-service/client
// (docs/client.md), in dist/client/: index.js, one ES module bundled by esbuild from src/client/
// (@trpc/client, @trpc/server and openapi-fetch stay imports), and index.d.ts, its declarations
// bundled by rollup-plugin-dts into one self-contained file. The router's type is the one part of
// the server a client needs; scripts/lib/client-router-type.ts writes it out in plain TypeScript,
// so the declarations import nothing of the server (zod, MikroORM, Fastify) and only the packages
// a consumer installs: @trpc/client, @trpc/server, openapi-fetch.
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { clientRouterTypeSource } from './lib/client-router-type.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(ROOT, 'src/client');
const OUT = join(ROOT, 'dist/client');
const STAGING = join(ROOT, 'dist/client-types');
const EXTERNAL = [/^@trpc\//, /^openapi-fetch$/];
const external = (id: string) => EXTERNAL.some((pattern) => pattern.test(id));

export async function buildClient(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
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
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildClient();
  // stderr: `npm pack --json` (whose prepack this is) answers on stdout.
  for (const file of readdirSync(OUT)) console.error(`dist/client/${file}: ${statSync(join(OUT, file)).size} bytes`);
}
