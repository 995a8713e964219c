/** Secrets of the benchmark's own fake workspace (not real credentials). */
export const BENCH_SECRETS = {
  slackSigningSecret: 'bench-slack-signing-secret-0123456789',
  slackBotToken: 'xoxb-bench-0000-token',
  githubWebhookSecret: 'bench-github-webhook-secret-0123456789',
  githubToken: 'ghp_benchtoken000000000000000000000000',
} as const;
