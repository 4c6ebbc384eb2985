# Image for the API and the projector worker (see compose.yaml). TypeScript runs through tsx,
# so there is no build stage.
FROM node:20-slim
WORKDIR /app
COPY package.json package-lock.json ./
# The install applies them (patch-package, the postinstall script).
COPY patches ./patches
RUN npm ci --omit=dev --no-fund --no-audit
COPY bin ./bin
COPY src ./src
COPY streams ./streams
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
CMD ["node", "bin/server.js"]
