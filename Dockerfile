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
# The Cricsheet import reads the people register.
COPY datasets ./datasets
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
USER node
# Readiness (the database and Redis answer), not liveness: an instance that cannot serve is
# taken out of rotation. The image has no curl; Node's fetch does.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/server.js"]
