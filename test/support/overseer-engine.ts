// The real Docker engine for the automated-assessment integration tests (the one
// scripts/docker-engine.sh starts, or DOCKER_HOST's) and the FROM scratch + busybox image they use.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { dockerOptions } from '../../src/adapters/docker.ts';

export const IMAGE = 'course-overseer-test:busybox';
const BUSYBOX = '/bin/busybox';

/** Why the real engine cannot be used here, or null when it answers. */
export async function noEngine(): Promise<string | null> {
  if (!existsSync(BUSYBOX)) return `no ${BUSYBOX} to build the test image from (scripts/docker-engine.sh installs busybox-static)`;
  const docker = new Docker({ ...dockerOptions(process.env.DOCKER_HOST || undefined), timeout: 2000 });
  try {
    await docker.ping();
    return null;
  } catch (error) {
    return (
      `no Docker engine answers at ${process.env.DOCKER_HOST || '/var/run/docker.sock'} (${(error as Error).message}); ` +
      'run scripts/docker-engine.sh as root'
    );
  }
}

export async function buildImage(): Promise<void> {
  const docker = new Docker({ ...dockerOptions(process.env.DOCKER_HOST || undefined), timeout: 60_000 });
  const context = await mkdtemp(join(tmpdir(), 'overseer-image-'));
  try {
    await copyFile(BUSYBOX, join(context, 'busybox'));
    await writeFile(
      join(context, 'Dockerfile'),
      'FROM scratch\nCOPY busybox /bin/busybox\nRUN ["/bin/busybox", "--install", "-s", "/bin"]\nRUN ["/bin/busybox", "mkdir", "-p", ' +
        '"/home/overseer/work-dir", "/tmp"]\n',
    );
    const stream = await docker.buildImage({ context, src: ['Dockerfile', 'busybox'] }, { t: IMAGE, networkmode: 'none', rm: true, forcerm: true });
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(stream, (err: Error | null, events: { error?: string }[]) => {
        const failed = err?.message ?? events.find((e) => e.error)?.error;
        return failed ? reject(new Error(`building ${IMAGE} failed: ${failed}`)) : resolve();
      }),
    );
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}
