# syntax=docker/dockerfile:1
# agent-relay: build with the full toolchain, run on a slim image as a non-root user.
#   docker build -t agent-relay .
#   docker run -p 3000:3000 -v agent-relay-data:/data --env-file .env agent-relay

# ---- build: install everything (better-sqlite3 ships a prebuilt module), compile TypeScript ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev

# ---- runtime: compiled JavaScript and production dependencies only ----
FROM node:24-bookworm-slim AS runtime
# NODE_OPTIONS: see src/service/node-options.ts (a smaller young generation keeps resident memory low).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=2 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=/data/agent-relay.db
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "dist/cli.js", "healthcheck"]
# node runs as PID 1 and handles SIGTERM itself: it drains, then exits 0 (README, "Shutdown").
STOPSIGNAL SIGTERM
CMD ["node", "dist/cli.js", "start"]
