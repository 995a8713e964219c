/**
 * The one bound on a request body the HTTP server reads (and the Slack receiver and GitHub
 * ingress re-check): 2 MiB. Larger than the longest prompt anyone may send (MAX_PROMPT_CHARS
 * tops out at 1,000,000 characters), so an over-long prompt reaches the parser and gets a clear
 * "too long" reply instead of a bare 413; bodies over it get 413.
 */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
