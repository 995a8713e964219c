/**
 * How much of a request body the HTTP server reads, per route, before anything checks it
 * (the bound applies while reading: past it the server answers 413 and stops keeping bytes).
 *
 * - Slack (`/slack/events`): 512 KiB. A Slack message holds at most 40,000 characters; an
 *   event carries them twice (`text` and the rich-text `blocks`), up to 3 bytes each, so a
 *   real event stays under 256 KB; the rest is headroom for attachments and escaping.
 * - GitHub (`/github/webhooks`): 25 MiB, GitHub's documented cap on a webhook payload
 *   ("payloads are capped at 25 MB"), so no delivery GitHub sends is refused.
 * - Everything else (the console's forms, the operator routes, OAuth pages): 64 KiB.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export const SLACK_BODY_LIMIT_BYTES = 512 * KiB;
export const GITHUB_BODY_LIMIT_BYTES = 25 * MiB;
export const SMALL_BODY_LIMIT_BYTES = 64 * KiB;
