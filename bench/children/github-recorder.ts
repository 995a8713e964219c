/**
 * A minimal GitHub REST API for the benchmark: creates and edits issue comments, accepts
 * reactions, and records the receipt time of each request. The shared fake
 * (src/fakes/github-rest-api.ts) times requests with performance.now(), not the wall clock
 * the tracking and end-to-end delays are measured against, so the bench keeps this small one.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHubReceipt {
  at: number;
  method: string;
  /** `owner/repo#number` for a new comment. */
  issue?: string;
  commentId?: number;
  body?: string;
}

export interface GitHubRecorder {
  url: string;
  receipts: GitHubReceipt[];
  /** Reserve the id of a comment that exists already (a tracked run's status message). */
  seedComment(): number;
  close(): Promise<void>;
}

const COMMENTS = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/;
const COMMENT = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/;
const REACTIONS = /^\/repos\/[^/]+\/[^/]+\/issues\/(comments\/)?\d+\/reactions$/;

export async function startGitHubRecorder(): Promise<GitHubRecorder> {
  const receipts: GitHubReceipt[] = [];
  let nextId = 900_000;
  const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
  const comment = (id: number, owner: string, repo: string, number: number, body: string) => ({
    id,
    node_id: `IC_${id}`,
    body,
    html_url: `https://github.com/${owner}/${repo}/issues/${number}#issuecomment-${id}`,
    user: { login: 'agent-relay[bot]', type: 'Bot' },
  });

  function route(method: string, path: string, text: string, at: number) {
    const body = text === '' ? {} : (JSON.parse(text) as { body?: unknown });
    const bodyText = typeof body.body === 'string' ? body.body : '';
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = COMMENTS.exec(path))) {
      const [owner = '', repo = '', n = '0'] = m.slice(1);
      const id = ++nextId;
      receipts.push({ at, method, issue: `${owner}/${repo}#${n}`, commentId: id, body: bodyText });
      return json(201, comment(id, owner, repo, Number(n), bodyText));
    }
    if (method === 'PATCH' && (m = COMMENT.exec(path))) {
      const id = Number(m[1]);
      receipts.push({ at, method, commentId: id, body: bodyText });
      return json(200, comment(id, 'o', 'r', 1, bodyText));
    }
    if (method === 'POST' && REACTIONS.test(path)) {
      receipts.push({ at, method: 'REACT' });
      return json(201, { id: receipts.length, content: 'eyes' });
    }
    receipts.push({ at, method: `${method} ${path}` });
    return json(404, { message: 'Not Found' });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      let answer: { status: number; body: string };
      try {
        answer = route(req.method ?? 'GET', path, Buffer.concat(chunks).toString('utf8'), at);
      } catch {
        answer = json(400, { message: 'Problems parsing JSON' });
      }
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    receipts,
    seedComment: () => ++nextId,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
