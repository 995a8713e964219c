/**
 * Which optional features a platform has. Each platform declares its own (its `platform.ts`);
 * the runs read them where platforms differ, instead of naming a platform, and
 * docs/platforms.md shows them side by side.
 */
export interface PlatformCapabilities {
  /** Buttons on the status message (Stop, Cancel) that a person presses in the conversation. */
  buttons: boolean;
  /** Answers only the asker sees (refusals, `status`, `help`). */
  ephemeral: boolean;
  /** The one status message is edited in place as the run moves. */
  editsInPlace: boolean;
  /** The platform's own agent surface (Slack's agent pane, Linear's agent sessions). */
  agentSessions: boolean;
  /** Check runs on a pull request's head commit. */
  checkRuns: boolean;
  /** An install flow (OAuth) for more than one workspace or organisation. */
  install: boolean;
  /**
   * The platform marks a quiet agent session stale (Linear: after 30 minutes), so the runs'
   * session keeper writes a keep-alive into a working run's session that has been quiet for
   * the platform's interval (runs/tracker/session-keeper.ts).
   */
  sessionKeepAlive: boolean;
  /**
   * A Stop's answer is the final activity of the session's turn (Linear): the run's next
   * outcome, when it only says the interrupted run waits (BLOCKED), is not queued
   * (runs/session-work.ts).
   */
  stopAnswerFinal: boolean;
}

/** What a platform the runs were told nothing about can do: nothing optional. */
export const NO_CAPABILITIES: PlatformCapabilities = {
  buttons: false,
  ephemeral: false,
  editsInPlace: false,
  agentSessions: false,
  checkRuns: false,
  install: false,
  sessionKeepAlive: false,
  stopAnswerFinal: false,
};
