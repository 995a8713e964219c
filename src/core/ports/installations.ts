/**
 * Installations of a platform app in many workspaces (Slack, Linear and Jira OAuth; a Linear
 * workspace is kept with `teamId` = its organization id): kept by the store, read
 * by the platform side. The record is opaque to the store: `sealed` is already encrypted by
 * the platform side, so the database never holds a token in clear.
 */
export interface InstallationRecord {
  platform: 'slack' | 'linear' | 'jira';
  /** '' when the workspace is not part of an Enterprise Grid organisation. */
  enterpriseId: string;
  /** '' for an organisation-wide install. */
  teamId: string;
  isEnterpriseInstall: boolean;
  sealed: string;
  installedBy?: string;
  createdAt: number;
  updatedAt: number;
}

export interface InstallationKey {
  platform: 'slack' | 'linear' | 'jira';
  enterpriseId: string;
  teamId: string;
}

export interface InstallationRepo {
  /** Create or replace (a reinstall replaces the tokens). */
  save(record: Omit<InstallationRecord, 'createdAt' | 'updatedAt'>, now: number): Promise<void>;
  get(key: InstallationKey): Promise<InstallationRecord | undefined>;
  /**
   * Compare-and-set of the sealed installation: replaced only while it is still `expected`
   * (a refreshed token pair, written by the one replica whose refresh it was); true when it was.
   */
  replaceSealed(
    key: InstallationKey,
    expected: string,
    sealed: string,
    now: number,
  ): Promise<boolean>;
  /** Forget an installation; true when there was one. */
  remove(key: InstallationKey): Promise<boolean>;
  /** Remember that a workspace belongs to an organisation (seen under an org-wide install). */
  linkTeam(platform: 'slack', teamId: string, enterpriseId: string, now: number): Promise<void>;
  /** The organisation a workspace was seen under, if any. */
  enterpriseOf(platform: 'slack', teamId: string): Promise<string | undefined>;
  count(platform: 'slack' | 'linear' | 'jira'): Promise<number>;
}
