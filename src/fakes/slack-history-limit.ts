/**
 * Slack's limit on history reads for a commercially distributed app that the Slack
 * Marketplace has not approved, as Slack's changelog states it
 * (https://docs.slack.dev/changelog/2025/05/29/rate-limit-changes-for-non-marketplace-apps):
 * `conversations.history` and `conversations.replies` answer one request a minute per method
 * and workspace (another answers HTTP 429 with `Retry-After`), and at most 15 messages a
 * request (`limit` above 15, or none, reads 15). The fake Slack applies it when started with
 * `historyLimited: true`; internal and Marketplace apps are not limited, which is its default.
 */
export const HISTORY_METHODS = new Set(['conversations.history', 'conversations.replies']);
export const LIMITED_MESSAGES = 15;
export const LIMITED_EVERY_MS = 60_000;

export function createHistoryGate(now: () => number) {
  const last = new Map<string, number>();
  return {
    /**
     * The call as Slack takes it under the limit: refused (seconds to wait) when the method was
     * called in this workspace less than a minute ago, else its parameters with `limit` capped.
     */
    admit(
      method: string,
      workspace: string,
      params: Record<string, unknown>,
    ): { retryAfter: number } | { params: Record<string, unknown> } {
      if (!HISTORY_METHODS.has(method)) return { params };
      const key = `${workspace}\u0000${method}`;
      const at = now();
      const previous = last.get(key);
      if (previous !== undefined && at - previous < LIMITED_EVERY_MS)
        return { retryAfter: Math.ceil((previous + LIMITED_EVERY_MS - at) / 1000) };
      last.set(key, at);
      const asked = Number(params.limit);
      const limit =
        Number.isInteger(asked) && asked > 0 ? Math.min(asked, LIMITED_MESSAGES) : LIMITED_MESSAGES;
      return { params: { ...params, limit } };
    },
  };
}
