/**
 * How much of a request body the HTTP server reads, per route, before anything checks it
 * (the bound applies while reading: past it the server answers 413 and stops keeping bytes).
 *
 * - Slack (`/slack/events`): 512 KiB. A Slack message holds at most 40,000 characters; an
 *   event carries them twice (`text` and the rich-text `blocks`), up to 3 bytes each, so a
 *   real event stays under 256 KB; the rest is headroom for attachments and escaping.
 * - GitHub (`/github/webhooks`): 2 MiB. The signature can only be checked once the whole body
 *   is in, so whatever is read before it is read for anyone; GitHub's own cap (25 MB) serves
 *   events the relay does not take (pushes). The events it takes carry at most an issue or
 *   pull request body and a comment (65,536 characters each, up to 4 bytes per character) and
 *   their metadata: well under 2 MiB. A larger declared `Content-Length` is refused before a
 *   byte of the body is read.
 * - Everything else (the console's forms, the operator routes, OAuth pages): 64 KiB.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export const SLACK_BODY_LIMIT_BYTES = 512 * KiB;
export const GITHUB_BODY_LIMIT_BYTES = 2 * MiB;
export const SMALL_BODY_LIMIT_BYTES = 64 * KiB;
