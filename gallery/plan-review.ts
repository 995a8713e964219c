/**
 * The plan-review conversation as messages, for the platforms drawn from their renderers
 * (Linear, Jira, Teams): the plan with its answers, who asked for changes and what, the
 * revised plan, who approved it, and the outcome. Built with the relay's own constructors, as
 * the review use case posts them (a notice that names the person, then the review message).
 */
import type { MessageModel, PersonView, RunView } from '../src/core/message/message-model.js';
import { notice, runOutcomeMessage } from '../src/core/message/render-model.js';

/** The plan an agent writes for `title`, its steps as given; a revision adds the changes. */
export function planMarkdown(title: string, steps: readonly string[], changes?: string): string {
  return [
    `# Plan: ${title}`,
    '',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    ...(changes === undefined ? [] : ['', '## Changed as asked', '', `- ${changes}`]),
  ].join('\n');
}

/** A run waiting on its plan (version `version`), as the tracker shows it. */
export function planned(run: RunView, version: number, markdown: string, url: string): RunView {
  return { ...run, review: { kind: 'plan', version, plan: { title: run.title, markdown, url } } };
}

export interface PlanReview {
  first: MessageModel;
  changesAsked: MessageModel;
  revised: MessageModel;
  approved: MessageModel;
  outcome: MessageModel;
}

/** The review, from the first plan to the outcome of the approved one. */
export function planReview(opts: {
  first: RunView;
  revised: RunView;
  done: RunView;
  person: PersonView;
  changes: string;
}): PlanReview {
  const review = (run: RunView): MessageModel => ({ type: 'review', run, review: run.review! });
  return {
    first: review(opts.first),
    changesAsked: notice(
      'info',
      `asked for changes to the plan: ${opts.changes}`,
      undefined,
      opts.person,
    ),
    revised: review(opts.revised),
    approved: notice(
      'info',
      'approved the plan; the agent is carrying it out.',
      undefined,
      opts.person,
    ),
    outcome: runOutcomeMessage(opts.done),
  };
}
