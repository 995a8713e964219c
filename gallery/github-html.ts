/**
 * A comment's Markdown -> HTML as GitHub shows it: GitHub-flavoured Markdown (tables, line
 * breaks, `<details>`, `<sub>`) through `marked`, framed like a comment by the App's bot.
 */
import { Marked } from 'marked';

const markdown = new Marked({ gfm: true, breaks: false, async: false });

export const GITHUB_CSS = `
body { margin: 0; background: #fff; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
#frame { width: 760px; padding: 16px; box-sizing: border-box; display: flex; gap: 12px; }
.avatar { width: 40px; height: 40px; border-radius: 6px; background: #0969da; color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; flex: none; }
.comment { flex: 1; min-width: 0; border: 1px solid #d1d9e0; border-radius: 6px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; padding: 8px 16px; color: #59636e; }
.head b { color: #1f2328; }
.bot { font-size: 12px; border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; margin-left: 4px; }
.markdown-body { padding: 16px; overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body > :last-child { margin-bottom: 0; }
p, blockquote, table, pre, details, ul { margin: 0 0 16px; }
h3, h4 { margin: 24px 0 16px; font-weight: 600; }
blockquote { padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; margin-left: 0; }
code { font: 85% ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: rgba(129,139,152,.12); border-radius: 6px; padding: .2em .4em; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
th { font-weight: 600; }
summary { cursor: pointer; }
sub { font-size: 85%; color: #59636e; }
a { color: #0969da; text-decoration: none; }
`;

export function githubMarkdownToHtml(body: string): string {
  return markdown.parse(body) as string;
}

/** One comment as GitHub shows it (a `<details>` folded, as a reader first sees it). */
export function githubCommentHtml(body: string): string {
  const html = githubMarkdownToHtml(body);
  return [
    '<div id="frame">',
    '<div class="avatar">AR</div>',
    '<div class="comment">',
    '<div class="head"><b>agent-relay</b><span class="bot">bot</span> commented now</div>',
    `<div class="markdown-body">${html}</div>`,
    '</div>',
    '</div>',
  ].join('\n');
}
