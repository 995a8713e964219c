/**
 * The secrets the reliability suite configures (distinct, greppable values), and the scan
 * that proves none of them reached a log line.
 */
import { generateKeyPairSync } from 'node:crypto';
import { TEST_GITHUB_SECRET } from './github.js';
import { TEST_SIGNING_SECRET } from './slack.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

export const SECRETS = {
  slackSigningSecret: TEST_SIGNING_SECRET,
  slackBotToken: 'xoxb-reliability-bot-token-7f3a9c21e4',
  githubWebhookSecret: TEST_GITHUB_SECRET,
  githubToken: 'ghp_reliabilityTokenDoNotLog0123456789',
  githubPrivateKey: privateKey,
  agentApiKey: 'agent-key-reliability-5c8e1d0b9a77',
} as const;

export const GITHUB_APP_ID = 424242;
export const GITHUB_PUBLIC_KEY = publicKey;

/** Strings whose presence in a log means a secret leaked (whole values and key fragments). */
export function secretNeedles(): { name: string; needle: string }[] {
  const needles = Object.entries(SECRETS)
    .filter(([name]) => name !== 'githubPrivateKey')
    .map(([name, needle]) => ({ name, needle }));
  // Any 32-character slice of the key's base64 body (JSON logs escape newlines, so lines are
  // checked one by one), and the PEM armour itself.
  const body = SECRETS.githubPrivateKey.split('\n').filter((l) => l && !l.startsWith('-----'));
  for (const [i, line] of body.entries()) {
    if (line.length >= 32)
      needles.push({ name: `githubPrivateKey[${i}]`, needle: line.slice(0, 32) });
  }
  needles.push({ name: 'githubPrivateKey (armour)', needle: 'PRIVATE KEY-----' });
  return needles;
}

/** Which secrets appear in `text` (empty when none). */
export function leakedSecrets(text: string): string[] {
  return secretNeedles()
    .filter(({ needle }) => text.includes(needle))
    .map(({ name }) => name);
}
