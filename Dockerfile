# The server image: `docker build -t audio-merge .`, then docker compose (compose.yaml) or one
# container with a volume on /data. scripts/replay-dockerfile.mjs replays the build stage's steps
# in a scratch folder in CI, so this file cannot drift from what the build needs.

# Build: the locked dependencies, the sources the build reads, the build, then only what runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json vite.config.ts ./
COPY src ./src
COPY bin ./bin
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Run: Debian's ffmpeg (a current one; the npm fallback is a slow 2018 build) and the built server.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data \
  && chown node:node /data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data
USER node
VOLUME /data
EXPOSE 3000 6001
CMD ["node", "dist/main.js"]
