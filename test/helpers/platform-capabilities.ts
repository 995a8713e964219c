/** Each platform's own capabilities, for tests that build the engine without `startService`. */
import type { Platform, PlatformCapabilities } from '../../src/core/ports/index.js';
import { PLATFORMS } from '../../src/service/platforms/list.js';

export const PLATFORM_CAPABILITIES: Record<Platform, PlatformCapabilities> = Object.fromEntries(
  PLATFORMS.map((p) => [p.name, p.capabilities]),
) as Record<Platform, PlatformCapabilities>;
