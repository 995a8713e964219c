/**
 * The emulator's catalogue: the environments and models `GET /agent/environments` and
 * `GET /agent/models` list. Seeded with a few of each; tests and the admin surface replace
 * them (`emulator.catalogue.set`, `POST /_emulator/catalogue`).
 */

export interface EmulatorEnvironment {
  uid: string;
  name: string;
  /** GitHub repositories cloned into it, `owner/repo`. */
  repos: string[];
  description?: string;
  /** Epoch ms; default: when the emulator started. */
  lastUpdated?: number;
  setupFailed?: boolean;
}

export interface EmulatorModel {
  id: string;
  displayName: string;
  provider: 'OPENAI' | 'ANTHROPIC' | 'GOOGLE' | 'UNKNOWN';
  visionSupported?: boolean;
  reasoningLevel?: string;
  description?: string;
  disableReason?: 'PROVIDER_OUTAGE' | 'OUT_OF_REQUESTS' | 'ADMIN_DISABLED' | 'REQUIRES_UPGRADE';
}

export interface CatalogueContents {
  environments: EmulatorEnvironment[];
  models: EmulatorModel[];
  defaultModelId: string;
}

export interface CatalogueControls {
  get(): CatalogueContents;
  /** Replace what is given; what is left out stays. */
  set(contents: Partial<CatalogueContents>): void;
}

export const DEFAULT_ENVIRONMENTS: EmulatorEnvironment[] = [
  { uid: 'env-web-app', name: 'Web App', repos: ['acme/web'] },
  { uid: 'env-payments', name: 'Payments API', repos: ['acme/payments', 'acme/ledger'] },
  { uid: 'env-data', name: 'Data Pipelines', repos: ['acme/pipelines'] },
];

export const DEFAULT_MODELS: EmulatorModel[] = [
  { id: 'auto', displayName: 'Auto', provider: 'UNKNOWN', visionSupported: true },
  {
    id: 'claude-4-6-sonnet',
    displayName: 'Claude Sonnet 4.6',
    provider: 'ANTHROPIC',
    visionSupported: true,
  },
  {
    id: 'gpt-5-4-high',
    displayName: 'GPT-5.4',
    provider: 'OPENAI',
    visionSupported: true,
    reasoningLevel: 'high',
  },
  { id: 'gemini-3-pro', displayName: 'Gemini 3 Pro', provider: 'GOOGLE', visionSupported: true },
];

export function createCatalogue(initial: Partial<CatalogueContents> = {}): CatalogueControls {
  const copy = (c: CatalogueContents): CatalogueContents => structuredClone(c);
  let contents = copy({
    environments: initial.environments ?? DEFAULT_ENVIRONMENTS,
    models: initial.models ?? DEFAULT_MODELS,
    defaultModelId: initial.defaultModelId ?? 'auto',
  });
  return {
    get: () => copy(contents),
    set(changes) {
      contents = copy({ ...contents, ...changes });
    },
  };
}
