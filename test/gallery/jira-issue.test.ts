/**
 * The Jira pictures of the gallery (docs/gallery/jira/), checked as every platform's are
 * (platform-pages.ts), and what only Jira's pages must show.
 */
import { describe, expect, it } from 'vitest';
import { jiraIssueIndex, jiraIssuePages } from '../../gallery/jira-issue.js';
import { itMatchesItsPages } from './platform-pages.js';

const pages = jiraIssuePages();

describe('gallery: what Jira shows', () => {
  itMatchesItsPages('jira', pages, jiraIssueIndex);

  it('the outcome mentions the requester with a mention node; nothing becomes a script', () => {
    for (const page of pages) {
      expect(JSON.stringify(page.comments[1])).toContain('"type":"mention"');
      expect(page.html).not.toMatch(/<script/i);
    }
  });
});
