// The one place the client reaches into the server: the router's type (type-only, erased from the
// built JavaScript; its declarations are bundled into the client's .d.ts by scripts/build-client.ts).
import type { AppRouter } from '../routers/index.ts';

export type ServerRouter = AppRouter;
