/**
 * A local stand-in for the GitHub REST API endpoints agent-relay calls (comments, edits,
 * reactions, pull request branches; `/rate_limit`, `/user` and `/app` for `doctor`). It keeps
 * each issue's conversation as a person would see it and reports every change.
 */
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHubComment {
  id: number;
  /** `owner/repo#number` */
  issue: string;
  author: string;
  body: string;
  edits: number;
  reactions: string[];
  /** Review-comment replies: the root comment's id. */
  inReplyTo?: number;
}

export type GitHubChange =
  | { kind: 'comment' | 'edit'; comment: GitHubComment }
  /** `issue` is where the reacted-to comment or issue body is. */
  | { kind: 'react'; target: string; issue: string; reaction: string };

export interface FakeGitHub {
  apiUrl: string;
  token: string;
  botLogin: string;
  comments(issue: string): GitHubComment[];
  /** Reactions on an issue body (`owner/repo#n`) or a comment (`comment:<id>`). */
  reactions(target: string): string[];
  /** A person comments (the demo then delivers the webhook). */
  addHumanComment(issue: string, author: string, body: string): GitHubComment;
  onChange(listener: (change: GitHubChange) => void): void;
  requests(): { method: string; path: string }[];
  /** While down, every request answers 503 (an outage). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

type Handler = (m: string[], body: Record<string, unknown>) => [number, unknown];

export async function startFakeGitHub(options: { token?: string } = {}): Promise<FakeGitHub> {
  const token = options.token ?? 'ghp_demo_token';
  const botLogin = 'agent-relay[bot]';
  const comments: GitHubComment[] = [];
  const reactions = new Map<string, string[]>();
  const listeners: ((change: GitHubChange) => void)[] = [];
  const log: { method: string; path: string }[] = [];
  let nextId = 1000;
  let down = false;
  const emit = (c: GitHubChange) => listeners.forEach((l) => l(c));

  function addComment(issue: string, author: string, body: string, inReplyTo?: number) {
    const comment: GitHubComment = {
      id: nextId++,
      issue,
      author,
      body,
      edits: 0,
      reactions: [],
      inReplyTo,
    };
    comments.push(comment);
    return comment;
  }
  const view = (c: GitHubComment, owner: string, repo: string) => ({
    id: c.id,
    body: c.body,
    html_url: `https://github.test/${owner}/${repo}/issues/${c.issue.split('#')[1]}#issuecomment-${c.id}`,
    user: { login: c.author, type: c.author.endsWith('[bot]') ? 'Bot' : 'User' },
  });
  function react(target: string, content: string): [number, unknown] {
    const list = reactions.get(target) ?? [];
    if (!list.includes(content)) list.push(content);
    reactions.set(target, list);
    const comment = comments.find((c) => `comment:${c.id}` === target);
    if (comment && !comment.reactions.includes(content)) comment.reactions.push(content);
    emit({ kind: 'react', target, issue: comment?.issue ?? target, reaction: content });
    return [201, { id: nextId++, content }];
  }

  const routes: [string, RegExp, Handler][] = [
    [
      'GET',
      /^\/rate_limit$/,
      () => [
        200,
        { resources: { core: { limit: 5000, remaining: 4999, reset: 0, used: 1 } }, rate: {} },
      ],
    ],
    ['GET', /^\/user$/, () => [200, { login: 'relay-user', type: 'User' }]],
    ['GET', /^\/app$/, () => [200, { slug: 'agent-relay', installations_count: 1 }]],
    [
      'POST',
      /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/,
      ([, o, r, n], b) => {
        const c = addComment(`${o}/${r}#${n}`, botLogin, String(b.body ?? ''));
        emit({ kind: 'comment', comment: c });
        return [201, view(c, o!, r!)];
      },
    ],
    [
      'PATCH',
      /^\/repos\/([^/]+)\/([^/]+)\/(?:issues|pulls)\/comments\/(\d+)$/,
      ([, o, r, id], b) => {
        const c = comments.find((x) => x.id === Number(id));
        if (!c) return [404, { message: 'Not Found' }];
        c.body = String(b.body ?? '');
        c.edits += 1;
        emit({ kind: 'edit', comment: c });
        return [200, view(c, o!, r!)];
      },
    ],
    [
      'POST',
      /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/comments\/(\d+)\/replies$/,
      ([, o, r, n, root], b) => {
        const c = addComment(`${o}/${r}#${n}`, botLogin, String(b.body ?? ''), Number(root));
        emit({ kind: 'comment', comment: c });
        return [201, view(c, o!, r!)];
      },
    ],
    [
      'POST',
      /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/reactions$/,
      ([, o, r, n], b) => react(`${o}/${r}#${n}`, String(b.content)),
    ],
    [
      'POST',
      /^\/repos\/[^/]+\/[^/]+\/(?:issues|pulls)\/comments\/(\d+)\/reactions$/,
      ([, id], b) => react(`comment:${id}`, String(b.content)),
    ],
    [
      'GET',
      /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/,
      ([, n]) => [200, { number: Number(n), head: { ref: 'feature' }, base: { ref: 'main' } }],
    ],
  ];

  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      log.push({ method: req.method ?? 'GET', path });
      const auth = req.headers.authorization ?? '';
      const [status, payload] = down
        ? [503, { message: 'Service Unavailable' }]
        : !authorized(auth, token)
          ? [401, { message: 'Bad credentials' }]
          : dispatch(routes, req.method ?? 'GET', path, body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiUrl: `http://127.0.0.1:${port}`,
    token,
    botLogin,
    comments: (issue) => comments.filter((c) => c.issue === issue),
    reactions: (target) => [...(reactions.get(target) ?? [])],
    addHumanComment: (issue, author, body) => addComment(issue, author, body),
    onChange: (listener) => void listeners.push(listener),
    requests: () => [...log],
    setDown: (value) => void (down = value),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A token (`token X` / `Bearer X`), or any App JWT (three dot-separated parts). */
function authorized(header: string, token: string): boolean {
  const value = header.replace(/^(token|bearer)\s+/i, '');
  return value === token || /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}

function dispatch(
  routes: [string, RegExp, Handler][],
  method: string,
  path: string,
  body: Record<string, unknown>,
): [number, unknown] {
  for (const [m, pattern, handler] of routes) {
    const match = m === method ? pattern.exec(path) : null;
    if (match) return handler([...match], body);
  }
  return [404, { message: 'Not Found' }];
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return {};
  }
}
