/**
 * The service's catalogue of environments and models (docs/agent-api.md, "The catalogue"), as
 * the use cases read it: `undefined` when it cannot be read now, so a caller sends the value
 * as given rather than blocking a run because the catalogue is down.
 */
export interface CatalogueEnvironment {
  id: string;
  name: string;
  /** The GitHub repositories the environment clones, `owner/repo`. */
  repos: string[];
}

export interface CatalogueModel {
  id: string;
  name: string;
  /** Set when the service says the model cannot be used now (e.g. `PROVIDER_OUTAGE`). */
  disabledReason?: string;
}

export interface Catalogue {
  environments(): Promise<CatalogueEnvironment[] | undefined>;
  models(): Promise<CatalogueModel[] | undefined>;
}
