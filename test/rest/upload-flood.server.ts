// The API in a process of its own, so that upload-flood.test.ts measures the server's memory
// alone: the app as main.ts builds it, plus one upload route (no operation of the spec takes a
// file yet). It reports its port, then its resident memory whenever asked.
import { z } from 'zod';
import { registerRestRoutes } from '../../compat/plugin.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createOrm } from '../../src/db/orm.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createServices } from '../../src/trpc/context.ts';
import { authedMutation, router } from '../../src/trpc/core.ts';
import { uploadedFile } from '../../src/lib/files.ts';

const uploads = router({
  upload: authedMutation
    .meta({ openapi: { method: 'POST', path: '/api/flood/upload' }, rest: { upload: { maxBytes: Number(process.env.FLOOD_UPLOAD_CAP) } } })
    .input(z.object({ file: uploadedFile() }))
    .output(z.object({ bytes: z.number() }))
    .mutation(({ input }) => ({ bytes: input.file.size })),
});

export type Memory = { rss: number; peak: number; heap: number };
export type FromServer = { port: number } | Memory;
export type ToServer = 'measure' | 'reset-peak';

// Only when started by the test (importing this file's types must not start a server).
if (process.env.FLOOD_UPLOAD_CAP && process.send) {
  const config = loadConfig(process.env);
  const orm = await createOrm(config.databaseUrl!);
  const services = createServices(orm, config, systemClock);
  const app = await buildApp(services);
  registerRestRoutes(app, uploads, services);
  await app.listen({ port: 0, host: '127.0.0.1' });

  // Sampled often, so that a burst of buffering between two questions is still seen.
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  setInterval(sample, 5).unref();
  const gc = (globalThis as { gc?: () => void }).gc;
  // `heap` is what JavaScript holds after a collection (objects and buffers): what the flood
  // left behind. RSS also counts memory the allocator keeps for reuse.
  process.on('message', (message: ToServer) => {
    sample();
    gc?.();
    if (message === 'reset-peak') peak = 0;
    const { rss, heapUsed, external } = process.memoryUsage();
    peak = Math.max(peak, rss);
    process.send!({ rss, peak, heap: heapUsed + external } satisfies FromServer);
  });
  process.on(
    'disconnect',
    () =>
      void app
        .close()
        .then(() => orm.close())
        .finally(() => process.exit(0)),
  );
  const address = app.server.address();
  process.send({ port: typeof address === 'object' && address ? address.port : 0 } satisfies FromServer);
}
