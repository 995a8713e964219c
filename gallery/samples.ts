/**
 * Every kind of message the relay posts, built with the relay's own constructors from
 * realistic runs at fixed times (so the gallery is the same on every machine).
 */
import type { RunItem } from '../src/agent/schemas.js';
import type { MessageModel, PersonView } from '../src/core/message/message-model.js';
import {
  configMessage,
  factoryChoice,
  followupSentMessage,
  helpMessage,
  listMessage,
  notice,
  runBriefMessage,
  runChoiceMessage,
  runOutcomeMessage,
  runStatusMessage,
} from '../src/core/message/render-model.js';
import { startingView, toRunView, type RunViewRecord } from '../src/core/message/run-view.js';
import { overBudgetNotice } from '../src/runs/use-cases/budget.js';

export type GalleryPlatform = 'slack' | 'github';

export interface GallerySample {
  /** File name (no extension): `<platform>-<what>`. */
  name: string;
  platform: GalleryPlatform;
  /** What the picture shows, for people. */
  caption: string;
  model: MessageModel;
  /** Seen only by the person who asked (a Slack ephemeral message). */
  private?: boolean;
  /** GitHub: the run's check run (Checks tab), not a comment. */
  checkRun?: boolean;
}

/** The moment every sample is looked at. */
export const GALLERY_NOW = Date.parse('2026-03-02T10:06:00Z');

const SESSION = 'https://agents.example.com/sessions/s_8f2c';
const PR = {
  artifact_type: 'PULL_REQUEST',
  created_at: '2026-03-02T10:04:00Z',
  data: { url: 'https://github.com/acme/web/pull/61', branch: 'fix/login-redirect' },
};

function item(state: string, extra: Partial<RunItem> = {}): RunItem {
  return {
    run_id: 'a1b2c3d4-0000-4000-8000-000000000061',
    title: 'Fix the login redirect loop',
    prompt: 'Fix the login redirect loop after SSO sign-in',
    state,
    created_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:02:03Z',
    started_at: '2026-03-02T10:00:00Z',
    session_link: SESSION,
    ...extra,
  };
}

function record(requester: PersonView): RunViewRecord {
  return {
    requester,
    applied: [
      { key: 'model', value: 'claude-sonnet', source: 'inline' },
      { key: 'env', value: 'env_web', source: 'default' },
      { key: 'skill', source: 'service' },
    ],
  };
}

const alice: Record<GalleryPlatform, PersonView> = {
  slack: { platform: 'slack', id: 'U0ALICE01', name: 'alice' },
  github: { platform: 'github', id: 'alice' },
};

function run(platform: GalleryPlatform, state: string, extra: Partial<RunItem> = {}) {
  return toRunView({ run: item(state, extra), record: record(alice[platform]), now: GALLERY_NOW });
}

const done = {
  run_time: 'PT2M3S',
  artifacts: [PR],
  request_usage: {
    inference_cost_usd: 1.09,
    compute_cost_usd: 0.13,
    platform_cost_usd: 0.02,
    total_tokens: 312_400,
  },
};
const failed = {
  run_time: 'PT1M12S',
  status_message: { message: 'npm ci exited 1: the lockfile does not match package.json' },
};
const blocked = {
  status_message: { message: 'Which branch should the fix target: main or release/2.x?' },
};

/** What the agent is doing now, as the conversation's last steps show it. */
const working = {
  progress: {
    kind: 'steps',
    steps: [
      { title: 'Search codebase: redirect_uri', state: 'done' },
      { title: 'Edit file: src/auth/callback.ts', state: 'done' },
      { title: 'Run command: npm test -- auth', state: 'running' },
    ],
  },
} as const;

/** The plan a run in plan mode wrote, as an agent writes one. */
const PLAN_MARKDOWN = [
  '# Plan: Fix the login redirect loop',
  '',
  'The loop comes from the SSO callback: it sends people back to `/login` when the session cookie is set on the wrong domain.',
  '',
  '1. Add a test that signs in through SSO and expects the dashboard.',
  '2. Set the session cookie on the parent domain in `src/auth/callback.ts`.',
  '3. Drop the second redirect in `src/auth/guard.ts` once the cookie is read.',
  '4. Note the change in `docs/auth.md`.',
  '',
  '## Risks',
  '',
  '- Sessions issued before the change keep their old cookie until they expire (8 hours).',
].join('\n');

/** A run in plan mode waiting for its plan to be approved (the first version). */
function planned(platform: GalleryPlatform) {
  return {
    ...run(platform, 'BLOCKED', {
      run_time: 'PT2M40S',
      status_message: {
        message: 'The plan is ready for review. Approve it to carry it out, or ask for changes.',
      },
    }),
    review: {
      kind: 'plan' as const,
      version: 1,
      plan: {
        title: 'Fix the login redirect loop',
        markdown: PLAN_MARKDOWN,
        url: `${SESSION}#plan`,
      },
    },
  };
}

/** Pictures of a run at work and stopped, and its GitHub check run. */
function workSamples(platform: GalleryPlatform): GallerySample[] {
  const name = (what: string) => `${platform}-${what}`;
  const progress = {
    ...run(platform, 'INPROGRESS', { run_time: 'PT3M10S' }),
    progress: { kind: working.progress.kind, steps: [...working.progress.steps] },
  };
  const samples: GallerySample[] = [
    {
      name: name('status-progress'),
      platform,
      caption: 'While the agent works: its last steps on the status message',
      model: runStatusMessage(progress),
    },
  ];
  const plan = planned(platform);
  samples.push({
    name: name('plan-review'),
    platform,
    caption:
      platform === 'slack'
        ? 'Plan first: the plan in the thread, with its answers (the rest a click away)'
        : 'Plan first: the plan in a reply, with the answers to type',
    model: { type: 'review', run: plan, review: plan.review },
  });
  if (platform === 'slack') {
    const child = run(platform, 'BLOCKED', {
      run_id: 'e5d4c3b2-0000-4000-8000-000000000064',
      title: 'Deploy the login fix to production',
      session_link: 'https://agents.example.com/sessions/s_91d0',
    });
    samples.push({
      name: name('sub-run-approval'),
      platform,
      caption: 'A sub-run the run started waits for approval: Approve / Reject go to it',
      model: {
        type: 'review',
        run: child,
        review: {
          kind: 'action',
          version: 1,
          subRun: {
            runId: child.runId,
            sessionLink: 'https://agents.example.com/sessions/s_91d0',
            says: 'Waiting for approval to run the production deploy workflow',
          },
        },
      },
    });
    samples.push(
      {
        name: name('stopped'),
        platform,
        caption: 'Stop: the agent is interrupted and the run waits for a reply',
        model: notice(
          'info',
          'stopped the agent. Reply in this thread to continue.',
          undefined,
          alice.slack,
        ),
      },
      {
        name: name('status-stopped'),
        platform,
        caption: '…and the status message of the stopped run',
        model: runStatusMessage(run(platform, 'BLOCKED', { run_time: 'PT3M20S' })),
      },
    );
  } else {
    samples.push(
      {
        name: name('check-run-progress'),
        platform,
        caption: "The run's check run on the pull request while the agent works",
        model: runStatusMessage(progress),
        checkRun: true,
      },
      {
        name: name('status-plan'),
        platform,
        caption: 'Plan first: the status comment holds the plan while it waits',
        model: runStatusMessage(plan),
      },
      {
        name: name('check-run-plan'),
        platform,
        caption: "Plan first: the check run waits for action, with the plan's buttons",
        model: runStatusMessage(plan),
        checkRun: true,
      },
      {
        name: name('check-run'),
        platform,
        caption: "The run's check run once it succeeded",
        model: runStatusMessage(run(platform, 'SUCCEEDED', done)),
        checkRun: true,
      },
    );
  }
  return samples;
}

function samplesFor(platform: GalleryPlatform): GallerySample[] {
  const invocation = platform === 'slack' ? '/agent' : '@agent-relay';
  const scope = platform === 'slack' ? 'slack:T0001:C0WEB01' : 'github:acme/web';
  const s = (
    name: string,
    caption: string,
    model: MessageModel,
    isPrivate = false,
  ): GallerySample => ({
    name: `${platform}-${name}`,
    platform,
    caption,
    model,
    ...(isPrivate && platform === 'slack' ? { private: true } : {}),
  });
  const second = toRunView({
    run: item('SUCCEEDED', {
      run_id: '7f3e9c21-5b4d-4e8a-9c10-000000000058',
      title: 'Document the release checklist',
      created_at: '2026-03-02T08:10:00Z',
      updated_at: '2026-03-02T08:16:30Z',
      run_time: 'PT6M30S',
    }),
    record: { requester: alice[platform] },
    now: GALLERY_NOW,
  });
  const starting = startingView({
    title: 'Fix the login redirect loop',
    prompt: 'Fix the login redirect loop after SSO sign-in',
    requester: alice[platform],
    applied: record(alice[platform]).applied ?? [],
  });
  return [
    s(
      'status-starting',
      'The status message within a second of asking, before the service has answered',
      runStatusMessage(starting),
    ),
    s(
      'status-queued',
      'The status message, posted once…',
      runStatusMessage(run(platform, 'QUEUED')),
    ),
    s(
      'status-running',
      '…edited in place while the run works',
      runStatusMessage(run(platform, 'INPROGRESS')),
    ),
    s(
      'status-succeeded',
      'Succeeded, with its pull request',
      runStatusMessage(run(platform, 'SUCCEEDED', done)),
    ),
    s(
      'status-failed',
      'Failed: what happened and what to do next',
      runStatusMessage(run(platform, 'FAILED', failed)),
    ),
    s(
      'outcome-succeeded',
      'The reply that tells the requester',
      runOutcomeMessage(run(platform, 'SUCCEEDED', done)),
    ),
    s(
      'outcome-blocked',
      'Waiting for input: the agent asks',
      runOutcomeMessage(run(platform, 'BLOCKED', blocked)),
    ),
    s(
      'outcome-failed',
      'The reply when a run failed',
      runOutcomeMessage(run(platform, 'FAILED', failed)),
    ),
    s(
      'outcome-cancelled',
      'The reply when a run was cancelled',
      runOutcomeMessage(run(platform, 'CANCELLED', { run_time: 'PT40S' })),
    ),
    s(
      'followup-sent',
      'A follow-up sent to the run',
      followupSentMessage(
        run(platform, 'INPROGRESS'),
        'Also add a regression test for the SSO callback',
      ),
    ),
    s(
      'status-answer',
      '`status`: a brief answer; the status message itself is refreshed',
      runBriefMessage(
        run(platform, 'INPROGRESS'),
        platform === 'github'
          ? { url: 'https://github.com/acme/web/issues/60#issuecomment-1' }
          : {},
      ),
      true,
    ),
    s('list', "`list`: this place's recent runs", {
      ...listMessage([run(platform, 'INPROGRESS'), second], {}, false, 'place'),
      month: { name: 'March 2026', spentUsd: 12.4, budgetUsd: 20 },
    }),
    s(
      'over-budget',
      'A new run in a place that has spent its monthly budget: refused before anything is sent',
      overBudgetNotice({
        platform,
        budget: { spentUsd: 20.35, budgetUsd: 20 },
        now: GALLERY_NOW,
        words: { botHandle: 'agent-relay', commandWord: '/agent' },
        ...(platform === 'github' ? { mention: alice.github } : {}),
      }),
    ),
    s(
      'config',
      '`config`: the defaults of this channel or repository',
      configMessage(
        scope,
        [
          {
            key: 'model',
            value: 'claude-sonnet',
            updatedBy: platform === 'slack' ? 'U0ALICE01' : 'alice',
          },
          { key: 'env', value: 'env_web' },
        ],
        ['model'],
      ),
      true,
    ),
    s('help', '`help`', helpMessage(invocation), true),
    s(
      'error',
      'A mistake, answered to its author',
      notice(
        'error',
        'Unknown option "modle". Options: model, env, skill, name, title, mode, factory.',
        `${invocation} [model=<id>] <prompt>`,
        platform === 'github' ? alice.github : undefined,
      ),
      true,
    ),
    s(
      'no-factory',
      'A factory that does not exist: the ones that do',
      factoryChoice(
        'nosuch',
        [],
        [
          { uid: 'f_1', name: 'Docs Team', alias: 'docs' },
          { uid: 'f_2', name: 'Triage', alias: 'triage' },
        ],
      ),
      true,
    ),
    ...(platform === 'slack'
      ? [
          s(
            'choose-run',
            '`/agent cancel` with several live runs: pick one',
            runChoiceMessage('cancel', [
              run(platform, 'INPROGRESS'),
              {
                ...second,
                state: run(platform, 'QUEUED').state,
                title: 'Document the release checklist',
              },
            ]),
            true,
          ),
          s(
            'service-down',
            'Service trouble, said once',
            notice(
              'warning',
              'The Agent Run Service is not answering. Your request is saved and will be carried out when it is back.',
            ),
            true,
          ),
        ]
      : [
          s(
            'refusal',
            'Someone who may not start runs here',
            notice('info', 'Only collaborators of this repository can start runs.', undefined, {
              platform: 'github',
              id: 'mallory',
            }),
          ),
        ]),
  ];
}

export const GALLERY_SAMPLES: GallerySample[] = [
  ...samplesFor('slack'),
  ...workSamples('slack'),
  ...samplesFor('github'),
  ...workSamples('github'),
];
