/**
 * The buttons of a run's check run, by the identifier GitHub sends back in a
 * `requested_action` webhook (at most 20 characters): written by render/, read by ingress/.
 */
export const CHECK_ACTIONS = { stop: 'stop', cancel: 'cancel' } as const;

/**
 * A plan's answers on a completed check run, bound to the plan's version:
 * `approve.<version>` and `cancel.<version>` (well inside GitHub's 20 characters).
 */
export function reviewIdentifier(answer: 'approve' | 'cancel', version: number): string {
  return `${answer}.${version}`;
}

export function readReviewIdentifier(
  identifier: string,
): { answer: 'approve' | 'cancel'; version: number } | undefined {
  const match = /^(approve|cancel)\.(\d{1,9})$/.exec(identifier);
  if (!match) return undefined;
  return { answer: match[1] as 'approve' | 'cancel', version: Number(match[2]) };
}
