/** Sample MessageModels for renderer tests: one per type, with awkward user/service text. */
import type { MessageModel, RunView } from '../../src/core/message/message-model.js';
import { stateView } from '../../src/core/message/state-view.js';

export function sampleRun(state: string, patch: Partial<RunView> = {}): RunView {
  const view = stateView(state);
  return {
    runId: 'run_01HZX3K9',
    title: 'Fix the *flaky* parser test <script>',
    state: view,
    requester: { platform: 'github', id: 'alice', name: 'alice' },
    applied: [
      { key: 'model', value: 'gpt-x|large', source: 'inline' },
      { key: 'env', value: 'env_node20', source: 'default' },
      { key: 'skill', source: 'service' },
    ],
    sessionLink: 'https://service.example/sessions/s_123',
    links: [
      {
        kind: 'pull_request',
        label: 'octo-org/widgets#9',
        url: 'https://github.com/octo-org/widgets/pull/9',
      },
    ],
    runTime: '4m 12s',
    actions: view.live ? ['status', 'cancel'] : ['status'],
    createdAt: '2024-05-15T15:20:21Z',
    updatedAt: '2024-05-15T15:24:33Z',
    ...patch,
  };
}

export const SAMPLE_MODELS: Record<string, MessageModel> = {
  'run_status queued': {
    type: 'run_status',
    run: sampleRun('QUEUED', { runTime: undefined, links: [] }),
  },
  'run_status running with factory': {
    type: 'run_status',
    run: sampleRun('INPROGRESS', {
      factory: { alias: 'docs', name: 'Docs factory' },
      applied: [
        { key: 'model', source: 'service' },
        { key: 'factory', value: 'docs', source: 'inline' },
        { key: 'mode', value: 'plan', source: 'inline' },
      ],
    }),
  },
  'run_status failed': {
    type: 'run_status',
    run: sampleRun('FAILED', { statusMessage: 'Tests failed:\n# 3 failing\n@bob broke `main`' }),
  },
  'run_outcome succeeded': { type: 'run_outcome', run: sampleRun('SUCCEEDED') },
  'run_outcome failed': {
    type: 'run_outcome',
    run: sampleRun('ERROR', {
      statusMessage: 'environment_setup_failed: npm ci exited 1',
      links: [],
    }),
  },
  'run_outcome blocked': {
    type: 'run_outcome',
    run: sampleRun('BLOCKED', {
      statusMessage: 'Which branch should I target: main or release/2.x?',
    }),
  },
  'run_outcome cancelled': { type: 'run_outcome', run: sampleRun('CANCELLED', { links: [] }) },
  followup_sent: {
    type: 'followup_sent',
    run: sampleRun('INPROGRESS'),
    message: "also cover @carol's case\n> quoted",
  },
  run_list: {
    type: 'run_list',
    runs: [
      sampleRun('INPROGRESS'),
      sampleRun('SUCCEEDED', { runId: 'run_2', title: 'Docs | table' }),
    ],
    filters: { state: ['INPROGRESS', 'SUCCEEDED'], mine: true },
    truncated: true,
  },
  'run_list empty': { type: 'run_list', runs: [], filters: {}, truncated: false },
  config: {
    type: 'config',
    scope: 'github:octo-org/widgets',
    settings: [
      { key: 'model', value: 'gpt-x', updatedBy: 'alice' },
      { key: 'env', value: 'env_`node`', updatedBy: 'bob' },
    ],
    changed: ['model'],
  },
  'config empty': { type: 'config', scope: 'github:octo-org/widgets', settings: [], changed: [] },
  help: { type: 'help', invocation: '@agent-relay', options: ['model', 'env', 'skill', 'mode'] },
  'notice error with usage': {
    type: 'notice',
    tone: 'error',
    text: 'unknown option "modle" (options: model, env)',
    usage: '@agent-relay [model=<id>] <prompt>\n```\nnested fence\n```',
  },
  'notice refusal': {
    type: 'notice',
    tone: 'info',
    text: 'Only collaborators may start runs here.',
    mention: { platform: 'github', id: 'mallory' },
  },
  'factory_choice none': { type: 'factory_choice', alias: 'docs', candidates: [] },
  'factory_choice several': {
    type: 'factory_choice',
    alias: 'docs',
    candidates: [
      { uid: 'f_1', name: 'Docs factory', alias: 'docs' },
      { uid: 'f_2', name: 'Docs *legacy*', alias: 'docs-old' },
    ],
  },
};
