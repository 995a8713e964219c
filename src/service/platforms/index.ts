/**
 * The platforms the configuration turns on, built from the list and handled as one: their
 * notifiers for the outbox, their access and directory answers, their routes, and their
 * start and stop. Nothing here (or in `main.ts`) names a platform.
 */
import type {
  Notifier,
  Platform,
  PlatformCapabilities,
  PlatformAccess,
} from '../../core/ports/index.js';
import { platformOf } from '../../core/thread-key.js';
import type {
  PlaceDirectory,
  PlatformDefinition,
  PlatformDeps,
  PlatformModule,
  RouteContext,
} from '../../platform/contract.js';
import type { Route } from '../../platform/route.js';
import { PLATFORMS } from './list.js';

export { commandWord } from '../../platform/command-word.js';
export type { PlatformDeps, PlatformOverrides } from '../../platform/contract.js';

export interface Platforms {
  readonly modules: readonly PlatformModule[];
  notifiers: Partial<Record<Platform, Notifier>>;
  /** What every platform of the list can do, on or not. */
  capabilities: Partial<Record<Platform, PlatformCapabilities>>;
  /** The shortest keep-alive interval of the platforms on that keep sessions alive. */
  keepAliveMs?: number;
  /** A person's access to a place, for the runs to ask (the platforms that have one). */
  access?: PlatformAccess;
  /** People and places for the console, asked of the platform a thread or person belongs to. */
  directory: Required<PlaceDirectory>;
  /** Every route of every platform that is on; call once the engine (the sink) exists. */
  routes(context: (platform: Platform) => RouteContext): Route[];
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** Builds the platforms that are on, loading the code (and the SDK) of those alone. */
export async function createPlatforms(
  deps: PlatformDeps,
  definitions: readonly PlatformDefinition[] = PLATFORMS,
): Promise<Platforms> {
  // One after another, in the list's order, as their start-up lines read.
  const modules: PlatformModule[] = [];
  for (const definition of definitions) {
    const module = await definition.create(deps);
    if (module) modules.push(module);
  }
  const byName = new Map(modules.map((m) => [m.name, m]));
  // GitHub's repository question is answered by one platform; place questions go to the
  // platform of the thread they are asked about.
  const withRepoAccess = modules.filter((m) => m.access?.check);
  if (withRepoAccess.length > 1)
    throw new Error(`more than one platform answers access: ${withRepoAccess.map((m) => m.name)}`);
  const repoAccess = withRepoAccess[0]?.access;
  const placeAccess = new Map(
    modules.flatMap((m) => (m.access?.checkPlace ? [[m.name, m.access] as const] : [])),
  );
  const access: PlatformAccess | undefined =
    repoAccess === undefined && placeAccess.size === 0
      ? undefined
      : {
          ...(repoAccess?.check ? { check: (q) => repoAccess.check!(q) } : {}),
          ...(placeAccess.size > 0
            ? {
                checkPlace: async (q) => {
                  const platform = platformOf(q.threadKey);
                  const module = platform ? placeAccess.get(platform) : undefined;
                  if (!module?.checkPlace) return { kind: 'unanswered' as const };
                  return module.checkPlace(q);
                },
              }
            : {}),
        };
  const keepAlives = definitions
    .filter((d) => d.capabilities.sessionKeepAlive)
    .flatMap((d) => byName.get(d.name)?.keepAliveMs ?? []);
  return {
    modules,
    notifiers: Object.fromEntries(modules.map((m) => [m.name, m.notifier])),
    capabilities: Object.fromEntries(definitions.map((d) => [d.name, d.capabilities])),
    ...(keepAlives.length > 0 ? { keepAliveMs: Math.min(...keepAlives) } : {}),
    ...(access ? { access } : {}),
    directory: {
      async isGuest(tenant, user) {
        for (const m of modules) {
          const guest = await m.directory?.isGuest?.(tenant, user);
          if (guest !== undefined) return guest;
        }
        return undefined;
      },
      async isPublicPlace(threadKey) {
        const platform = platformOf(threadKey);
        const module = platform ? byName.get(platform) : undefined;
        return (await module?.directory?.isPublicPlace?.(threadKey)) ?? false;
      },
    },
    routes: (context) => modules.flatMap((m) => m.routes(context(m.name))),
    async start() {
      for (const m of modules) await m.start();
    },
    async stop() {
      for (const m of [...modules].reverse()) await m.stop();
    },
    async close() {
      for (const m of modules) await m.close();
    },
  };
}
